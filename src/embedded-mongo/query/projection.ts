import type { Document } from 'bson';
import { Query } from 'mingo';
import { CommandError } from '../commands/command-error';
import { idFirst } from './id-first';
import { matchView } from './match-view';
import { mingoOptions, type EvaluationSettings } from './mingo-options';
import { isTextScoreMeta } from './sort-documents';

/**
 * Applies a find projection; mingo does the work, then `_id` is moved back to the front.
 * `{ $meta: 'textScore' }` fields are filled from the text search's scores afterwards.
 */
export function projectDocuments(
  docs: Document[],
  projection: unknown,
  filter: Document,
  settings: EvaluationSettings = {},
  scores?: ReadonlyMap<Document, number>,
): Document[] {
  if (projection === undefined || projection === null) return docs;
  if (typeof projection !== 'object' || Array.isArray(projection)) throw new CommandError('TypeMismatch', 'projection must be an object');
  const metaFields = Object.keys(projection).filter((field) => isTextScoreMeta((projection as Document)[field]));
  if (metaFields.length > 0) {
    if (!scores) throw new CommandError('BadValue', "query requires text score metadata, but it is not available");
    const rest = Object.fromEntries(Object.entries(projection).filter(([field]) => !metaFields.includes(field)));
    const projected = projectDocuments(docs, rest, filter, settings);
    return projected.map((doc, i) => ({ ...doc, ...Object.fromEntries(metaFields.map((field) => [field, scores.get(docs[i]) ?? 0])) }));
  }
  if (Object.keys(projection).length === 0) return docs;
  // Query.find re-applies its condition; only the positional `$` projection needs the real filter.
  const positional = Object.keys(projection).some((field) => field.endsWith('.$'));
  // `$elemMatch` and `$` compare values, so they run on plain views (numbers unwrapped) like the filter.
  const compares = positional || Object.values(projection).some((value) => value !== null && typeof value === 'object' && '$elemMatch' in value);
  const query = new Query(positional ? matchView(filter) : {}, mingoOptions(settings, projection));
  return query
    .find(compares ? docs.map((doc) => matchView(doc)) : docs, (compares ? matchView(projection) : projection) as Document)
    .all()
    .map((doc) => idFirst(doc as Document));
}
