import { BadRequest } from '../../domain/errors';
import { echo, echoValue } from '../../domain/echo';
import { LIST_OPERATORS, MAX_QUERY_DEPTH, QUERY_COMBINATORS } from '../../domain/query';
import { FORBIDDEN_KEYS, NEVER_ALLOWED_OPERATORS } from './query-limits';
import { isObject } from './parse-filters';
import { checkRegexCondition } from './regex-condition';

/**
 * Copies a condition value, refusing any `$` key not in `operators`, forbidden keys and excessive
 * depth. It walks every object whatever its prototype (a `constructor` key cannot hide an
 * operator); only Dates, RegExps and genuine BSON values (class instances with `_bsontype`) are leaves.
 */
export function copyConditionValue(value: unknown, operators: ReadonlySet<string>, depth: number): unknown {
  if (!isObject(value) || isLeaf(value)) return value;
  if (depth > MAX_QUERY_DEPTH) throw new BadRequest('The query is nested too deeply');
  if (Array.isArray(value)) return value.map((item) => copyConditionValue(item, operators, depth + 1));
  const copy: Record<string, unknown> = {};
  const entries = Object.entries(value);
  assertNotMixed(entries);
  for (const [key, inner] of entries) {
    if (FORBIDDEN_KEYS.has(key)) throw new BadRequest(`Invalid query parameter ${echo(key)}`);
    if (key.startsWith('$')) {
      if (!operators.has(key) || NEVER_ALLOWED_OPERATORS.has(key))
        throw new BadRequest(`Invalid query parameter ${echo(key)}`, { [echo(key)]: echoValue(inner) });
      if (LIST_OPERATORS.has(key) && !Array.isArray(inner))
        throw new BadRequest(`${echo(key)} needs an array`, { [echo(key)]: echoValue(inner) });
    }
    copy[key] = copyConditionValue(inner, operators, depth + 1);
  }
  if ('$regex' in copy || '$options' in copy) checkRegexCondition(copy);
  return copy;
}

/**
 * `{ $ne: 1, 0: '' }` (what `id[]=&id[$ne]=1` parses to) is neither an operator object nor a
 * value to compare with: stores disagree on it (mingo throws, MongoDB compares the whole object),
 * so it is refused here, naming the stray field.
 */
function assertNotMixed(entries: Array<[string, unknown]>): void {
  let operator: string | undefined;
  let field: string | undefined;
  for (const [key] of entries) {
    if (!key.startsWith('$')) field ??= key;
    // In a query document (an `$elemMatch` value) combinators stand beside field names.
    else if (!QUERY_COMBINATORS.has(key)) operator ??= key;
  }
  if (operator !== undefined && field !== undefined) {
    throw new BadRequest(
      `Operators and field names cannot be mixed in one condition (${echo(operator)} beside '${echo(field)}')`,
    );
  }
}

function isLeaf(value: object): boolean {
  // A RegExp cannot arrive from a transport (JSON and query strings have none); internal callers may match with it.
  if (value instanceof Date || value instanceof RegExp) return true;
  const proto = Object.getPrototypeOf(value);
  const isPlain = proto === Object.prototype || proto === null || Array.isArray(value);
  return !isPlain && typeof (value as { _bsontype?: unknown })._bsontype === 'string';
}
