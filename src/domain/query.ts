/** The standard property operators every adapter understands. */
export const STANDARD_OPERATORS = ['$in', '$nin', '$lt', '$lte', '$gt', '$gte', '$ne', '$eq'] as const;

/** Operators whose operand is a list of values of the field's type. */
export const LIST_OPERATORS: ReadonlySet<string> = new Set(['$in', '$nin', '$all']);

/** Operators whose operand is one value of the field's type (what ids and URL strings convert in). */
export const VALUE_OPERATORS: ReadonlySet<string> = new Set(['$eq', '$ne', '$gt', '$gte', '$lt', '$lte']);

/** How deep conditions may nest before a query is refused (no recursion without a bound). */
export const MAX_QUERY_DEPTH = 12;

/** Top-level keys that are not conditions. */
export const STANDARD_FILTERS = ['$limit', '$skip', '$sort', '$select'] as const;

/** The conditions of a query: the query without its standard filters (`$limit $skip $sort $select`). */
export function conditionsOf(query: Query | undefined): Query {
  const { $limit: _l, $skip: _k, $sort: _o, $select: _s, ...conditions } = query ?? {};
  return conditions;
}

/** A query (or any object) without own keys: without allocating the key list. */
export function isEmptyQuery(query: object): boolean {
  for (const key in query) if (Object.hasOwn(query, key)) return false;
  return true;
}

/** Top-level logical keys whose values are arrays of queries. */
export const LOGICAL_OPERATORS = ['$or', '$and'] as const;

/**
 * Every key MongoDB reads as combining query documents: the logical operators above and `$nor`,
 * which service queries do not offer but a store must still treat as a combinator.
 */
export const QUERY_COMBINATORS: ReadonlySet<string> = new Set(['$or', '$and', '$nor']);

export type SortDirection = 1 | -1;

export interface QueryFilters {
  $limit?: number;
  $skip?: number;
  $sort?: Record<string, SortDirection>;
  $select?: string[];
  [key: string]: unknown;
}

/** A service query: conditions plus the filters above. */
export type Query = Record<string, any>;
