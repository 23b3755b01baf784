import type { Document } from 'bson';
import { CommandError } from '../base/command-error';
import { bsonTypeName } from '../query/bson-type';
import { isBsonNumber, numberValue } from '../query/bson-numbers';

/** `bsonType` aliases mongod accepts in `$jsonSchema` (the `$type` aliases plus 'number'). */
const BSON_TYPE_ALIASES = new Set([
  'double',
  'string',
  'object',
  'array',
  'binData',
  'undefined',
  'objectId',
  'bool',
  'date',
  'null',
  'regex',
  'dbPointer',
  'javascript',
  'symbol',
  'javascriptWithScope',
  'int',
  'timestamp',
  'long',
  'decimal',
  'minKey',
  'maxKey',
  'number',
]);

/** JSON Schema `type` names and the BSON types they stand for ('integer' is refused by mongod). */
const JSON_TYPE_ALIASES: Record<string, (value: unknown) => boolean> = {
  object: (value) => bsonTypeName(value) === 'object',
  array: Array.isArray,
  number: isBsonNumber,
  boolean: (value) => typeof value === 'boolean',
  string: (value) => typeof value === 'string',
  null: (value) => value === null,
};

/**
 * A compiled (sub)schema: the rules a present value breaks, each in mongod's `errInfo.details`
 * form (`{ operatorName, specifiedAs, reason, consideredValue, ... }`); none means it conforms.
 */
export type SchemaCheck = (value: unknown) => Document[];

export type TypeTest = (value: unknown) => boolean;

/** Parses `type` / `bsonType` (a name or an array of names) into a test, with mongod's parse errors. */
export function parseTypeKeyword(keyword: 'type' | 'bsonType', raw: unknown): TypeTest {
  if (typeof raw !== 'string' && !Array.isArray(raw)) {
    throw new CommandError(
      'TypeMismatch',
      `$jsonSchema keyword '${keyword}' must be either a string or an array of strings`,
    );
  }
  const names = Array.isArray(raw) ? raw : [raw];
  if (names.length === 0)
    throw new CommandError('FailedToParse', `$jsonSchema keyword '${keyword}' must name at least one type`);
  const tests = names.map((name) => {
    if (typeof name !== 'string')
      throw new CommandError('TypeMismatch', `$jsonSchema keyword '${keyword}' array elements must be strings`);
    if (keyword === 'type') {
      if (name === 'integer')
        throw new CommandError('FailedToParse', "$jsonSchema type 'integer' is not currently supported.");
      const test = JSON_TYPE_ALIASES[name];
      if (!test) throw new CommandError('BadValue', `Unknown JSON Schema alias: ${name}`);
      return test;
    }
    if (!BSON_TYPE_ALIASES.has(name)) throw new CommandError('BadValue', `Unknown type name alias: ${name}`);
    return name === 'number' ? isBsonNumber : (value: unknown) => bsonTypeName(value) === name;
  });
  return (value) => tests.some((test) => test(value));
}

/** The type name mongod reports as `consideredType`. */
export function consideredType(value: unknown): string {
  return bsonTypeName(value);
}

/** A length or count keyword's value (minLength, maxItems, ...), as mongod checks it. */
export function nonNegativeInteger(schema: Document, keyword: string): number {
  const raw = schema[keyword];
  const value = isBsonNumber(raw) ? numberValue(raw) : NaN;
  if (!Number.isInteger(value)) throw new CommandError('TypeMismatch', `${keyword} must be an integer`);
  if (value < 0) throw new CommandError('BadValue', `${keyword} must be nonnegative`);
  return value;
}

/** A schema or subdocument: a plain object, not an array or a BSON value. */
export function isPlainObject(value: unknown): value is Document {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && value.constructor === Object;
}
