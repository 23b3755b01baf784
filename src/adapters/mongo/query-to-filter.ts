import { BadRequest } from '../../domain/errors';
import { QUERY_COMBINATORS, type Query } from '../../domain/query';
import { MAX_QUERY_DEPTH, NEVER_ALLOWED_OPERATORS } from '../../application/query/query-limits';
import { checkRegexCondition } from '../../application/query/regex-condition';
import { toObjectId } from './object-id';

/**
 * Keys that must never reach the database from `params.query`, whatever the service allows: they
 * run code, evaluate expressions, or are pipeline stages reaching other collections. `filterQuery`
 * refuses them already; this is the second, independent check at the database boundary.
 */
const REFUSED_KEYS = new Set([
  ...NEVER_ALLOWED_OPERATORS, '$where', '$function', '$accumulator', '$expr',
  '$lookup', '$graphLookup', '$unionWith', '$out', '$merge', '$facet', '$documents',
]);

const ID_LIST_OPERATORS = new Set(['$in', '$nin', '$all']);
const ID_VALUE_OPERATORS = new Set(['$eq', '$ne', '$gt', '$gte', '$lt', '$lte']);

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
  return convertConditions(query, conversion, 0);
}

function convertConditions(query: Query, conversion: FilterConversion, depth: number): Record<string, unknown> {
  if (depth > MAX_QUERY_DEPTH) throw new BadRequest('The query is nested too deeply');
  const filter: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(query)) {
    if (REFUSED_KEYS.has(key)) throw new BadRequest(`Invalid query parameter ${key}`);
    if (QUERY_COMBINATORS.has(key)) {
      if (!Array.isArray(value)) throw new BadRequest(`${key} must be an array of queries`);
      filter[key] = value.map((branch) => {
        if (typeof branch !== 'object' || branch === null || Array.isArray(branch)) throw new BadRequest(`${key} must be an array of queries`);
        return convertConditions(branch as Query, conversion, depth + 1);
      });
    } else if (key === '$text') {
      filter[key] = checkText(value);
    } else {
      const checked = checkValue(value, depth + 1);
      filter[key] = key === conversion.objectIdField ? objectifyCondition(checked) : checked;
    }
  }
  return filter;
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
    if (REFUSED_KEYS.has(key)) throw new BadRequest(`Invalid query parameter ${key}`);
    copy[key] = checkValue(inner, depth + 1);
  }
  return copy;
}

function checkText(value: unknown): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new BadRequest('$text must be an object with $search');
  const { $search, $language, $caseSensitive, $diacriticSensitive, ...rest } = value as Record<string, unknown>;
  if (typeof $search !== 'string') throw new BadRequest('$text.$search must be a string');
  if (Object.keys(rest).length > 0) throw new BadRequest(`Invalid $text parameter ${Object.keys(rest)[0]}`);
  const text: Record<string, unknown> = { $search };
  if ($language !== undefined) text.$language = String($language);
  if ($caseSensitive !== undefined) text.$caseSensitive = toBoolean('$caseSensitive', $caseSensitive);
  if ($diacriticSensitive !== undefined) text.$diacriticSensitive = toBoolean('$diacriticSensitive', $diacriticSensitive);
  return text;
}

function toBoolean(name: string, value: unknown): boolean {
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  throw new BadRequest(`$text.${name} must be a boolean`);
}

/** A condition on the ObjectId field: a plain id, or an operator object whose id operands are converted. */
export function objectifyCondition(value: unknown): unknown {
  const direct = objectifyValue(value);
  if (direct !== value || typeof value !== 'object' || value === null || Array.isArray(value) || !isPlainContainer(value)) return direct;
  const converted: Record<string, unknown> = {};
  for (const [operator, operand] of Object.entries(value as Record<string, unknown>)) {
    if (ID_LIST_OPERATORS.has(operator) && Array.isArray(operand)) converted[operator] = operand.map(objectifyValue);
    else if (ID_VALUE_OPERATORS.has(operator)) converted[operator] = objectifyValue(operand);
    else if (operator === '$not') converted[operator] = objectifyCondition(operand);
    else converted[operator] = operand;
  }
  return converted;
}

/** A 24-hex string (or a foreign ObjectId) as the driver's ObjectId; anything else unchanged. */
export function objectifyValue(value: unknown): unknown {
  if (typeof value === 'string') return toObjectId(value) ?? value;
  if (typeof value === 'object' && value !== null && !isPlainContainer(value)) return toObjectId(value) ?? value;
  return value;
}

/** Plain objects and arrays are walked; class instances (ObjectId, Date, RegExp, Binary) are values. */
function isPlainContainer(value: object): boolean {
  if (Array.isArray(value)) return true;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
