import { BadRequest } from '../../domain/errors';
import { echo } from '../../domain/echo';
import { isPlainObject } from '../../domain/plain-record';
import { MAX_QUERY_DEPTH, type Query } from '../../domain/query';
import { mapConditions, mapOperands } from '../../domain/query-conditions';
import { NEVER_ALLOWED_OPERATORS } from '../../application/query/query-limits';
import { checkRegexCondition } from '../../application/query/regex-condition';
import { toObjectId } from './object-id';

/**
 * Keys that must never reach the database from `params.query`, whatever the service allows: they
 * run code, evaluate expressions, or are pipeline stages reaching other collections. `filterQuery`
 * refuses them already; this is the second, independent check at the database boundary.
 */
const REFUSED_KEYS = new Set([
  ...NEVER_ALLOWED_OPERATORS,
  '$where',
  '$function',
  '$accumulator',
  '$expr',
  '$lookup',
  '$graphLookup',
  '$unionWith',
  '$out',
  '$merge',
  '$facet',
  '$documents',
]);

export interface FilterConversion {
  /** The field holding ObjectIds (`_id`); undefined when ids are never converted (`disableObjectify`). */
  objectIdField?: string;
}

/**
 * Converts the conditions of a service query into a MongoDB filter (a fresh object): 24-hex
 * strings on the ObjectId field become ObjectIds, also inside `$in`/`$nin`/`$ne`/comparisons and
 * in `$or`/`$and` branches; `$regex`/`$options` and `$text` are checked; refused keys are a 400.
 * Strings that are not valid ObjectIds are kept, so they simply match nothing (404, not 500).
 */
export function queryToFilter(query: Query, conversion: FilterConversion = {}): Record<string, unknown> {
  return mapConditions(query, {
    field(key, value, depth) {
      if (REFUSED_KEYS.has(key)) throw new BadRequest(`Invalid query parameter ${echo(key)}`);
      if (key === '$text') return checkText(value);
      const checked = checkValue(value, depth);
      return key === conversion.objectIdField ? objectifyCondition(checked) : checked;
    },
  });
}

/** Walks a condition value: refused keys anywhere, `$regex`/`$options` well-formed. */
function checkValue(value: unknown, depth: number): unknown {
  if (typeof value !== 'object' || value === null || !isPlainContainer(value)) return value;
  if (depth > MAX_QUERY_DEPTH) throw new BadRequest('The query is nested too deeply');
  if (Array.isArray(value)) return value.map((item) => checkValue(item, depth + 1));
  const record = value as Record<string, unknown>;
  if ('$regex' in record || '$options' in record) checkRegexCondition(record);
  const copy: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(record)) {
    if (REFUSED_KEYS.has(key)) throw new BadRequest(`Invalid query parameter ${echo(key)}`);
    copy[key] = checkValue(inner, depth + 1);
  }
  return copy;
}

function checkText(value: unknown): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new BadRequest('$text must be an object with $search');
  const { $search, $language, $caseSensitive, $diacriticSensitive, ...rest } = value as Record<string, unknown>;
  if (typeof $search !== 'string') throw new BadRequest('$text.$search must be a string');
  if (Object.keys(rest).length > 0) throw new BadRequest(`Invalid $text parameter ${echo(Object.keys(rest)[0])}`);
  const text: Record<string, unknown> = { $search };
  if ($language !== undefined) text.$language = String($language);
  if ($caseSensitive !== undefined) text.$caseSensitive = toBoolean('$caseSensitive', $caseSensitive);
  if ($diacriticSensitive !== undefined)
    text.$diacriticSensitive = toBoolean('$diacriticSensitive', $diacriticSensitive);
  return text;
}

function toBoolean(name: string, value: unknown): boolean {
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  throw new BadRequest(`$text.${name} must be a boolean`);
}

/** A condition on the ObjectId field: a plain id, or an operator object whose id operands are converted. */
export function objectifyCondition(value: unknown): unknown {
  return mapOperands(value, objectifyValue);
}

/** A 24-hex string (or a foreign ObjectId) as the driver's ObjectId; anything else unchanged. */
export function objectifyValue(value: unknown): unknown {
  if (typeof value === 'string') return toObjectId(value) ?? value;
  if (typeof value === 'object' && value !== null && !isPlainContainer(value)) return toObjectId(value) ?? value;
  return value;
}

/** Plain objects and arrays are walked; class instances (ObjectId, Date, RegExp, Binary) are values. */
function isPlainContainer(value: object): boolean {
  return Array.isArray(value) || isPlainObject(value);
}
