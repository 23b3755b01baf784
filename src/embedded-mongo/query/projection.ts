import type { Document } from 'bson';
import { Query } from 'mingo';
import { CommandError } from '../commands/command-error';
import { idFirst } from './id-first';
import { mingoOptions, type EvaluationSettings } from './mingo-options';

/** Applies a find projection; mingo does the work, then `_id` is moved back to the front. */
export function projectDocuments(
  docs: Document[],
  projection: unknown,
  filter: Document,
  settings: EvaluationSettings = {},
): Document[] {
  if (projection === undefined || projection === null) return docs;
  if (typeof projection !== 'object' || Array.isArray(projection)) throw new CommandError('TypeMismatch', 'projection must be an object');
  if (Object.keys(projection).length === 0) return docs;
  // Query.find re-applies its condition; only the positional `$` projection needs the real filter.
  const positional = Object.keys(projection).some((field) => field.endsWith('.$'));
  const query = new Query(positional ? filter : {}, mingoOptions(settings, projection));
  return query
    .find(docs, projection as Document)
    .all()
    .map((doc) => idFirst(doc as Document));
}
