import type { Document } from 'bson';
import { Query } from 'mingo';
import { CommandError } from '../commands/command-error';
import { fieldOrder } from './field-order';
import { matchView } from './match-view';
import { mingoOptions, type EvaluationSettings } from './mingo-options';
import { isTextScoreMeta } from './sort-documents';

/**
 * Applies a find projection; mingo does the work, then the fields are put back in the stored
 * document's order (see field-order.ts). `{ $meta: 'textScore' }` fields are filled from the text
 * search's scores.
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
  if (Object.keys(projection).length === 0) return docs;
  const order = fieldOrder(projection as Document);
  return withTextScores(docs, projection as Document, filter, settings, scores).map((doc, i) => order(doc, docs[i]));
}

function withTextScores(docs: Document[], projection: Document, filter: Document, settings: EvaluationSettings, scores?: ReadonlyMap<Document, number>): Document[] {
  const metaFields = Object.keys(projection).filter((field) => isTextScoreMeta(projection[field]));
  if (metaFields.length === 0) return projectWithMingo(docs, projection, filter, settings);
  if (!scores) throw new CommandError('BadValue', "query requires text score metadata, but it is not available");
  const rest = Object.fromEntries(Object.entries(projection).filter(([field]) => !metaFields.includes(field)));
  const projected = Object.keys(rest).length === 0 ? docs : projectWithMingo(docs, rest, filter, settings);
  return projected.map((doc, i) => ({ ...doc, ...Object.fromEntries(metaFields.map((field) => [field, scores.get(docs[i]) ?? 0])) }));
}

function projectWithMingo(docs: Document[], projection: Document, filter: Document, settings: EvaluationSettings): Document[] {
  // Query.find re-applies its condition; only the positional `$` projection needs the real filter.
  const positional = Object.keys(projection).some((field) => field.endsWith('.$'));
  // `$elemMatch` and `$` compare values, so they run on plain views (numbers unwrapped) like the filter.
  const compares = positional || Object.values(projection).some((value) => value !== null && typeof value === 'object' && '$elemMatch' in value);
  const query = new Query(positional ? matchView(filter) : {}, mingoOptions(settings, projection));
  return query.find(compares ? docs.map((doc) => matchView(doc)) : docs, (compares ? matchView(projection) : projection) as Document).all() as Document[];
}
