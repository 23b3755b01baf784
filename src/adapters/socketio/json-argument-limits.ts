import { FORBIDDEN_KEYS } from '../../application/query/query-limits';
import { QUERY_STRING_LIMITS } from '../../application/query/query-string-options';
import { BadRequest } from '../../domain/errors';

/** Nesting of call data, as for REST bodies. */
const MAX_DATA_DEPTH = 64;

/**
 * A socket query keeps its JSON types (numbers stay numbers) but meets the limits a REST query
 * string has: nesting, array length and the number of values, and no `__proto__`,
 * `constructor` or `prototype` key at any level. Anything else is a 400, never truncated.
 */
export function checkSocketQuery(query: unknown): Record<string, unknown> {
  if (query === undefined || query === null) return {};
  if (typeof query !== 'object' || Array.isArray(query)) throw new BadRequest('The query must be an object');
  let values = 0;
  walk(
    query,
    0,
    QUERY_STRING_LIMITS.depth,
    'query',
    () => {
      if (++values > QUERY_STRING_LIMITS.parameterLimit)
        throw new BadRequest(`The query has more than ${QUERY_STRING_LIMITS.parameterLimit} values`);
    },
    QUERY_STRING_LIMITS.arrayLimit,
  );
  return query as Record<string, unknown>;
}

/** Call data: nested at most as deep as a REST body, without prototype keys. */
export function checkSocketData(data: unknown): void {
  if (typeof data !== 'object' || data === null) return;
  walk(data, 0, MAX_DATA_DEPTH, 'data', () => undefined, Infinity);
}

/** Bounded by `maxDepth`, so recursion cannot run away on hostile input. */
function walk(
  value: object,
  depth: number,
  maxDepth: number,
  what: string,
  onValue: () => void,
  arrayLimit: number,
): void {
  if (depth > maxDepth) throw new BadRequest(`The ${what} is nested deeper than ${maxDepth} levels`);
  if (Array.isArray(value)) {
    if (value.length > arrayLimit) throw new BadRequest(`An array in the ${what} has more than ${arrayLimit} elements`);
    for (const item of value) visit(item, depth, maxDepth, what, onValue, arrayLimit);
    return;
  }
  for (const key of Object.keys(value)) {
    if (FORBIDDEN_KEYS.has(key)) throw new BadRequest(`Invalid key ${key} in the ${what}`);
    visit((value as Record<string, unknown>)[key], depth, maxDepth, what, onValue, arrayLimit);
  }
}

function visit(
  item: unknown,
  depth: number,
  maxDepth: number,
  what: string,
  onValue: () => void,
  arrayLimit: number,
): void {
  if (typeof item === 'object' && item !== null) walk(item, depth + 1, maxDepth, what, onValue, arrayLimit);
  else onValue();
}
