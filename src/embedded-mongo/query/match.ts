import type { Document } from 'bson';
import { Query } from 'mingo';
import { CommandError } from '../commands/command-error';
import { isBeyondDoublePrecision } from './bson-numbers';
import { renameTypeOperator } from './bson-type';
import { rewriteExactComparisons } from './exact-number-filter';
import { stringFoldFor } from './collation';
import { matchView } from './match-view';
import { mingoOptions, type EvaluationSettings } from './mingo-options';

export type DocumentPredicate = (doc: Document) => boolean;

const MATCH_ALL: DocumentPredicate = () => true;

/**
 * Compiles a query filter. mingo sees plain views (numeric wrappers unwrapped, so int, long,
 * double and decimal compare by value); under a case-, accent- or numeric-aware collation both the
 * filter and each candidate are folded first, because mingo ignores collation when matching.
 * `$type`, comparisons with int64 values beyond 2^53 and the geo predicates are served by the
 * server's own operators (reading the raw document).
 */
export function compileFilter(filter: unknown, settings: EvaluationSettings = {}): DocumentPredicate {
  let criteria = asFilter(filter);
  if (Object.keys(criteria).length === 0) return MATCH_ALL;
  if ('$text' in criteria) throw new CommandError('IndexNotFound', 'text index required for $text query');
  const typed = mentionsKey(criteria, '$type', 0) ? renameTypeOperator(criteria) : undefined;
  if (typed?.renamed) criteria = typed.filter as Document;
  const exact = mentionsLargeNumber(criteria, 0) ? rewriteExactComparisons(criteria) : undefined;
  if (exact?.rewritten) criteria = exact.filter;
  const fold = stringFoldFor(settings.collation);
  const geo = mentionsKey(criteria, '$geoWithin', 0) || mentionsKey(criteria, '$geoIntersects', 0);
  const typedFilter = typed?.renamed || exact?.rewritten || geo;
  const options = mingoOptions({ ...settings, ...(fold ? { collation: undefined } : {}), typedFilter }, criteria);
  const query = new Query(matchView(criteria, fold), options);
  return (doc) => query.test(matchView(doc, fold));
}

/** A filter must be a document; absent means everything. */
export function asFilter(filter: unknown): Document {
  if (filter === undefined || filter === null) return {};
  if (typeof filter !== 'object' || Array.isArray(filter)) throw new CommandError('TypeMismatch', 'filter must be an object');
  return filter as Document;
}

function mentionsKey(value: unknown, key: string, depth: number): boolean {
  if (depth > 64 || value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some((item) => mentionsKey(item, key, depth + 1));
  if (value.constructor !== Object) return false;
  for (const [name, item] of Object.entries(value)) if (name === key || mentionsKey(item, key, depth + 1)) return true;
  return false;
}

function mentionsLargeNumber(value: unknown, depth: number): boolean {
  if (isBeyondDoublePrecision(value)) return true;
  if (depth > 64 || value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some((item) => mentionsLargeNumber(item, depth + 1));
  if (value.constructor !== Object) return false;
  for (const item of Object.values(value)) if (mentionsLargeNumber(item, depth + 1)) return true;
  return false;
}
