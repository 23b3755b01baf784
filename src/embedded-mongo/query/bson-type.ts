import { Binary, BSONRegExp, Code, MaxKey, MinKey, ObjectId, Timestamp, type Document } from 'bson';
import { CommandError } from '../base/command-error';
import { bsonNumberType } from './bson-numbers';
import { rawOf } from './match-view';

/** `$type` aliases and their numeric codes. */
const TYPE_CODES: Record<string, number> = {
  double: 1,
  string: 2,
  object: 3,
  array: 4,
  binData: 5,
  undefined: 6,
  objectId: 7,
  bool: 8,
  date: 9,
  null: 10,
  regex: 11,
  javascript: 13,
  int: 16,
  timestamp: 17,
  long: 18,
  decimal: 19,
  minKey: -1,
  maxKey: 127,
};
const NUMBER_CODES = new Set([1, 16, 18, 19]);

/** The BSON type code of a stored value (numbers by their kept width). */
export function bsonTypeCode(value: unknown): number {
  const numeric = bsonNumberType(value);
  if (numeric) return TYPE_CODES[numeric];
  if (value === undefined) return 6;
  if (value === null) return 10;
  if (typeof value === 'string') return 2;
  if (typeof value === 'boolean') return 8;
  if (Array.isArray(value)) return 4;
  if (value instanceof Date) return 9;
  if (value instanceof ObjectId) return 7;
  if (value instanceof Binary) return 5;
  if (value instanceof RegExp || value instanceof BSONRegExp) return 11;
  if (value instanceof Timestamp) return 17;
  if (value instanceof Code) return 13;
  if (value instanceof MinKey) return -1;
  if (value instanceof MaxKey) return 127;
  return 3;
}

/** The `$type` alias of a stored value's type ('string', 'object', ...), as mongod names types in errors. */
export function bsonTypeName(value: unknown): string {
  const code = bsonTypeCode(value);
  return Object.keys(TYPE_CODES).find((name) => TYPE_CODES[name] === code) ?? 'object';
}

/** Accepts the `$type` operand: an alias, a code, 'number', or an array of those. */
function parseTypes(operand: unknown): Set<number> {
  const codes = new Set<number>();
  for (const item of Array.isArray(operand) ? operand : [operand]) {
    if (item === 'number') NUMBER_CODES.forEach((code) => codes.add(code));
    else if (typeof item === 'string' && item in TYPE_CODES) codes.add(TYPE_CODES[item]);
    else if (typeof item === 'number' && Object.values(TYPE_CODES).includes(item)) codes.add(item);
    else throw new CommandError('BadValue', `Unknown type name alias: ${String(item)}`);
  }
  return codes;
}

/** A mingo query operator (`$bsonType`, standing in for `$type`) reading the raw, typed document. */
export function bsonTypeOperator(selector: string, operand: unknown): (obj: unknown) => boolean {
  const codes = parseTypes(operand);
  return (obj) => pathValuesOf(obj, selector).some((value) => codes.has(bsonTypeCode(value)));
}

/** The raw, typed values a query path reaches in a (viewed) document, for operators that need real types. */
export function pathValuesOf(obj: unknown, selector: string): unknown[] {
  const values: unknown[] = [];
  collect(rawOf(obj), selector.split('.'), 0, values);
  return values;
}

/** Values on the path: a terminal array counts itself and its elements; missing fields count nothing. */
function collect(value: unknown, parts: string[], depth: number, out: unknown[]): void {
  if (depth === parts.length) {
    if (value === undefined) return;
    out.push(value);
    if (Array.isArray(value)) out.push(...value);
    return;
  }
  if (Array.isArray(value)) {
    if (/^\d+$/.test(parts[depth])) collect(value[Number(parts[depth])], parts, depth + 1, out);
    for (const element of value)
      if (element !== null && typeof element === 'object' && !Array.isArray(element))
        collect(element, parts, depth, out);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  collect((rawOf(value) as Document)[parts[depth]], parts, depth + 1, out);
}
