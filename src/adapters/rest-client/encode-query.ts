import { stringify } from 'qs';
import { isEmptyQuery, MAX_QUERY_DEPTH } from '../../domain/query';
import { QUERY_STRINGIFY_OPTIONS } from '../../application/query/query-string-options';
import { BadRequest } from '../../domain/errors';

/**
 * `?<query>` for a non-empty query, '' otherwise, stringified with the options that mirror the
 * server's `qs.parse` (indexed arrays, so `$or` branches and `$in` lists come back as sent).
 * `undefined` values are dropped.
 */
export function encodeQuery(query: Record<string, unknown> | undefined | null): string {
  // Most calls (a get by id) have no query: skip qs altogether.
  if (!query || typeof query !== 'object' || isEmptyQuery(query)) return '';
  refuseEmptyArrays(query, 0);
  const encoded = stringify(query, QUERY_STRINGIFY_OPTIONS);
  return encoded === '' ? '' : `?${encoded}`;
}

/**
 * qs leaves an empty array out of the string, so `{ id: { $in: [] } }` (match nothing) would reach
 * the server as "no condition" (match everything): refuse it rather than widen the query.
 */
function refuseEmptyArrays(value: unknown, depth: number, path = ''): void {
  if (depth > MAX_QUERY_DEPTH || typeof value !== 'object' || value === null || value instanceof Date) return;
  if (Array.isArray(value)) {
    if (value.length === 0)
      throw new BadRequest(`An empty array in the query (${path}) can not be sent in a query string`);
    value.forEach((item, index) => refuseEmptyArrays(item, depth + 1, `${path}[${index}]`));
    return;
  }
  for (const [key, item] of Object.entries(value))
    refuseEmptyArrays(item, depth + 1, path === '' ? key : `${path}.${key}`);
}
