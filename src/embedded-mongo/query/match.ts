import type { Document } from 'bson';
import { Query } from 'mingo';
import { CommandError } from '../base/command-error';
import { rewriteAllOperators } from './all-as-equalities';
import { needsServerComparison, rewriteExactComparisons } from './exact-number-filter';
import { stringFoldFor } from './collation';
import { matchView } from './match-view';
import { mingoOptions, type EvaluationSettings } from './mingo-options';
import { renameServedOperators, SERVED_OPERATOR_NAMES } from './rename-served-operators';
import { useStageFilterCompiler } from './typed-stages';

export type DocumentPredicate = (doc: Document) => boolean;

const MATCH_ALL: DocumentPredicate = () => true;

/**
 * Compiles a query filter. mingo sees plain views (numeric wrappers unwrapped, so int, long,
 * double and decimal compare by value); under a case-, accent- or numeric-aware collation both the
 * filter and each candidate are folded first, because mingo ignores collation when matching.
 * `$type`, the `$bits*` operators, comparisons with int64 values beyond 2^53 or BinData, and the
 * geo predicates are served by the server's own operators (reading the raw document); `$all` is
 * rewritten into the equalities mongod defines it as. The whole filter is validated here, before
 * any document is read (mongod refuses an unknown operator even on an empty collection).
 */
export function compileFilter(filter: unknown, settings: EvaluationSettings = {}): DocumentPredicate {
  let criteria = asFilter(filter);
  if (Object.keys(criteria).length === 0) return MATCH_ALL;
  if ('$text' in criteria) throw new CommandError('IndexNotFound', 'text index required for $text query');
  const found = inspectFilter(criteria);
  if (found.keys.has('$near') || found.keys.has('$nearSphere')) {
    // A top-level `$near` in a find is answered before matching (see geo/near-query.ts).
    throw new CommandError('BadValue', '$geoNear, $near, and $nearSphere are not allowed in this context');
  }
  if (found.keys.has('$all')) criteria = rewriteAllOperators(criteria);
  const renamed = Object.keys(SERVED_OPERATOR_NAMES).some((name) => found.keys.has(name));
  if (renamed) criteria = renameServedOperators(criteria);
  const exact = found.serverCompared ? rewriteExactComparisons(criteria) : undefined;
  if (exact?.rewritten) criteria = exact.filter;
  const fold = stringFoldFor(settings.collation);
  const typedFilter = renamed || exact?.rewritten || found.keys.has('$geoWithin') || found.keys.has('$geoIntersects');
  const options = mingoOptions(
    {
      collation: fold ? undefined : settings.collation,
      variables: settings.variables,
      collectionResolver: settings.collectionResolver,
      typedFilter,
    },
    criteria,
  );
  const query = new Query(matchView(criteria, fold), options);
  return (doc) => query.test(matchView(doc, fold));
}

// `$match` stages after others use this compiler too (see typed-stages.ts).
useStageFilterCompiler((filter) => compileFilter(filter));

/** A filter must be a document; absent means everything. */
export function asFilter(filter: unknown): Document {
  if (filter === undefined || filter === null) return {};
  if (typeof filter !== 'object' || Array.isArray(filter))
    throw new CommandError('TypeMismatch', 'filter must be an object');
  return filter as Document;
}

const WATCHED_KEYS = new Set([
  ...Object.keys(SERVED_OPERATOR_NAMES),
  '$all',
  '$geoWithin',
  '$geoIntersects',
  '$near',
  '$nearSphere',
]);

/**
 * One walk over the filter: which server-served operators it names, and whether it compares a value mingo cannot (see
 * exact-number-filter.ts).
 */
function inspectFilter(filter: Document): { keys: Set<string>; serverCompared: boolean } {
  const keys = new Set<string>();
  let serverCompared = false;
  const walk = (value: unknown, depth: number): void => {
    if (needsServerComparison(value)) serverCompared = true;
    if (depth > 64 || value === null || typeof value !== 'object') return;
    if (Array.isArray(value)) value.forEach((item) => walk(item, depth + 1));
    else if (value.constructor === Object) {
      for (const [name, item] of Object.entries(value)) {
        if (WATCHED_KEYS.has(name)) keys.add(name);
        walk(item, depth + 1);
      }
    }
  };
  walk(filter, 0);
  return { keys, serverCompared };
}
