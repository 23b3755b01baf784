import { isEmptyQuery, type Query } from '../../domain/query';
import type { FilteredQuery, FilterQueryOptions } from '../query/filter-query';

interface Validated {
  readonly filtered: FilteredQuery;
  readonly options: FilterQueryOptions;
  /** The sanitized query's own keys and values when it was made: any later top-level change means "validate again". */
  readonly keys: readonly string[];
  readonly values: readonly unknown[];
}

/**
 * The queries an adapter's public methods sanitized, so the store's `_find`/`_get` do not
 * validate the same object a second time. Lookups are by object identity and only succeed while
 * the object and the call's options are unchanged; any other query (direct `_find` calls) is
 * validated as before.
 */
export class ValidatedQueries {
  private readonly entries = new WeakMap<object, Validated>();

  /**
   * `{ ...filters, ...query }`, remembered as already validated under `options` when it has
   * conditions: filters alone (`$limit`, `$skip`, ...) validate again for less than the entry costs
   * to make and look up, so such queries (most `get`s and pages) are not remembered.
   */
  sanitized(filtered: FilteredQuery, options: FilterQueryOptions): Query {
    const query: Query = { ...filtered.filters, ...filtered.query };
    if (isEmptyQuery(filtered.query)) return query;
    const keys = Object.keys(query);
    this.entries.set(query, { filtered, options, keys, values: keys.map((key) => query[key]) });
    return query;
  }

  /** A fresh (shallow) copy of what validating `query` gave, or undefined when it must be validated. */
  lookup(query: unknown, options: FilterQueryOptions): FilteredQuery | undefined {
    if (typeof query !== 'object' || query === null) return undefined;
    const entry = this.entries.get(query);
    if (!entry || !sameOptions(entry.options, options)) return undefined;
    const keys = Object.keys(query);
    if (keys.length !== entry.keys.length) return undefined;
    for (let index = 0; index < keys.length; index++) {
      const key = keys[index];
      if (key !== entry.keys[index] || (query as Query)[key] !== entry.values[index]) return undefined;
    }
    return { filters: { ...entry.filtered.filters }, query: { ...entry.filtered.query } };
  }
}

function sameOptions(a: FilterQueryOptions, b: FilterQueryOptions): boolean {
  return a.filters === b.filters && a.operators === b.operators && a.paginate === b.paginate;
}
