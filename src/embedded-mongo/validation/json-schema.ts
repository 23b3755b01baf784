import type { Document } from 'bson';
import { CommandError } from '../base/command-error';
import { compareBson } from '../query/bson-compare';
import { isBsonNumber, numberValue } from '../query/bson-numbers';
import { objectChecks } from './schema-object-keywords';
import {
  consideredType,
  isPlainObject,
  nonNegativeInteger,
  parseTypeKeyword,
  type SchemaCheck,
  type TypeTest,
} from './schema-types';

const KNOWN_KEYWORDS = new Set([
  'additionalItems',
  'additionalProperties',
  'allOf',
  'anyOf',
  'bsonType',
  'dependencies',
  'description',
  'enum',
  'exclusiveMaximum',
  'exclusiveMinimum',
  'items',
  'maxItems',
  'maxLength',
  'maxProperties',
  'maximum',
  'minItems',
  'minLength',
  'minProperties',
  'minimum',
  'multipleOf',
  'not',
  'oneOf',
  'pattern',
  'patternProperties',
  'properties',
  'required',
  'title',
  'type',
  'uniqueItems',
]);
const UNSUPPORTED_KEYWORDS = new Set(['$ref', '$schema', 'default', 'definitions', 'format', 'id']);

/**
 * Compiles a `$jsonSchema` document as mongod does: unknown or unsupported keywords and malformed
 * values fail here (at createCollection / collMod / find), with mongod's codes and messages.
 * Restriction keywords (minimum, minLength, items, properties, ...) only apply to values of their
 * type, so `{ minimum: 1 }` accepts a string; `type` / `bsonType` is what rejects other types.
 */
export function compileJsonSchema(schema: unknown): SchemaCheck {
  if (!isPlainObject(schema)) throw new CommandError('TypeMismatch', '$jsonSchema must be an object');
  for (const keyword of Object.keys(schema)) {
    if (UNSUPPORTED_KEYWORDS.has(keyword))
      throw new CommandError('FailedToParse', `$jsonSchema keyword '${keyword}' is not currently supported`);
    if (!KNOWN_KEYWORDS.has(keyword))
      throw new CommandError('FailedToParse', `Unknown $jsonSchema keyword: ${keyword}`);
  }
  if (schema.type !== undefined && schema.bsonType !== undefined) {
    throw new CommandError('FailedToParse', "Cannot specify both $jsonSchema keywords 'type' and 'bsonType'");
  }
  for (const keyword of ['title', 'description']) {
    if (schema[keyword] !== undefined && typeof schema[keyword] !== 'string') {
      throw new CommandError('TypeMismatch', `$jsonSchema keyword '${keyword}' must be of type string`);
    }
  }
  const checks = [
    ...typeChecks(schema),
    ...scalarChecks(schema),
    ...arrayChecks(schema),
    ...objectChecks(schema, compileJsonSchema),
    ...logicalChecks(schema),
  ];
  return (value) => checks.flatMap((check) => check(value));
}

function typeChecks(schema: Document): SchemaCheck[] {
  const keyword = schema.bsonType !== undefined ? 'bsonType' : schema.type !== undefined ? 'type' : undefined;
  if (!keyword) return [];
  const matches: TypeTest = parseTypeKeyword(keyword, schema[keyword]);
  const specifiedAs = { [keyword]: schema[keyword] };
  return [
    (value) =>
      matches(value)
        ? []
        : [
            {
              operatorName: keyword,
              specifiedAs,
              reason: 'type did not match',
              consideredValue: value,
              consideredType: consideredType(value),
            },
          ],
  ];
}

function scalarChecks(schema: Document): SchemaCheck[] {
  const checks: SchemaCheck[] = [];
  for (const [bound, exclusive, below] of [
    ['minimum', 'exclusiveMinimum', true],
    ['maximum', 'exclusiveMaximum', false],
  ] as const) {
    if (schema[exclusive] !== undefined) {
      if (typeof schema[exclusive] !== 'boolean')
        throw new CommandError('TypeMismatch', `$jsonSchema keyword '${exclusive}' must be a boolean`);
      if (schema[bound] === undefined)
        throw new CommandError(
          'FailedToParse',
          `$jsonSchema keyword '${bound}' must be a present if ${exclusive} is present`,
        );
    }
    if (schema[bound] === undefined) continue;
    const limit = schema[bound];
    if (!isBsonNumber(limit)) throw new CommandError('TypeMismatch', `$jsonSchema keyword '${bound}' must be a number`);
    const strict = schema[exclusive] === true;
    const specifiedAs = {
      [bound]: limit,
      ...(schema[exclusive] !== undefined ? { [exclusive]: schema[exclusive] } : {}),
    };
    checks.push((value) => {
      if (!isBsonNumber(value)) return [];
      const order = compareBson(value, limit);
      const fails = below ? order < 0 || (strict && order === 0) : order > 0 || (strict && order === 0);
      return fails ? [{ operatorName: bound, specifiedAs, reason: 'comparison failed', consideredValue: value }] : [];
    });
  }
  if (schema.multipleOf !== undefined) {
    const divisor = schema.multipleOf;
    if (!isBsonNumber(divisor))
      throw new CommandError('TypeMismatch', "$jsonSchema keyword 'multipleOf' must be a number");
    if (numberValue(divisor) <= 0)
      throw new CommandError('FailedToParse', "$jsonSchema keyword 'multipleOf' must have a positive value");
    checks.push((value) =>
      isBsonNumber(value) && numberValue(value) % numberValue(divisor) !== 0
        ? [
            {
              operatorName: 'multipleOf',
              specifiedAs: { multipleOf: divisor },
              reason: 'considered value is not a multiple of the specified value',
              consideredValue: value,
            },
          ]
        : [],
    );
  }
  for (const [keyword, atLeast] of [
    ['minLength', true],
    ['maxLength', false],
  ] as const) {
    if (schema[keyword] === undefined) continue;
    const length = nonNegativeInteger(schema, keyword);
    checks.push((value) => {
      if (typeof value !== 'string') return [];
      const actual = [...value].length;
      return (atLeast ? actual < length : actual > length)
        ? [
            {
              operatorName: keyword,
              specifiedAs: { [keyword]: schema[keyword] },
              reason: 'specified string length was not satisfied',
              consideredValue: value,
            },
          ]
        : [];
    });
  }
  if (schema.pattern !== undefined) {
    if (typeof schema.pattern !== 'string')
      throw new CommandError('TypeMismatch', "$jsonSchema keyword 'pattern' must be a string");
    const regex = new RegExp(schema.pattern, 'u');
    checks.push((value) =>
      typeof value === 'string' && !regex.test(value)
        ? [
            {
              operatorName: 'pattern',
              specifiedAs: { pattern: schema.pattern },
              reason: 'regular expression did not match',
              consideredValue: value,
            },
          ]
        : [],
    );
  }
  if (schema.enum !== undefined) {
    const allowed = schema.enum;
    if (!Array.isArray(allowed)) throw new CommandError('TypeMismatch', "$jsonSchema keyword 'enum' must be an array");
    if (allowed.length === 0)
      throw new CommandError('FailedToParse', "$jsonSchema keyword 'enum' cannot be an empty array");
    checks.push((value) =>
      allowed.some((candidate) => compareBson(candidate, value) === 0)
        ? []
        : [
            {
              operatorName: 'enum',
              specifiedAs: { enum: allowed },
              reason: 'value was not found in enum',
              consideredValue: value,
            },
          ],
    );
  }
  return checks;
}

function arrayChecks(schema: Document): SchemaCheck[] {
  const checks: SchemaCheck[] = [];
  for (const [keyword, atLeast] of [
    ['minItems', true],
    ['maxItems', false],
  ] as const) {
    if (schema[keyword] === undefined) continue;
    const count = nonNegativeInteger(schema, keyword);
    checks.push((value) =>
      Array.isArray(value) && (atLeast ? value.length < count : value.length > count)
        ? [
            {
              operatorName: keyword,
              specifiedAs: { [keyword]: schema[keyword] },
              reason: 'array did not match specified length',
              consideredValue: value,
            },
          ]
        : [],
    );
  }
  if (schema.uniqueItems !== undefined) {
    if (typeof schema.uniqueItems !== 'boolean')
      throw new CommandError('TypeMismatch', "$jsonSchema keyword 'uniqueItems' must be a boolean");
    if (schema.uniqueItems) {
      checks.push((value) => {
        if (!Array.isArray(value)) return [];
        const duplicate = value.findIndex(
          (item, index) => value.findIndex((other) => compareBson(other, item) === 0) !== index,
        );
        return duplicate >= 0
          ? [
              {
                operatorName: 'uniqueItems',
                specifiedAs: { uniqueItems: true },
                reason: 'found a duplicate item',
                consideredValue: value,
                duplicatedValue: value[duplicate],
              },
            ]
          : [];
      });
    }
  }
  if (schema.items !== undefined) checks.push(...itemsChecks(schema));
  return checks;
}

function itemsChecks(schema: Document): SchemaCheck[] {
  const items = schema.items;
  if (isPlainObject(items)) {
    const check = compileJsonSchema(items);
    return [
      (value) => {
        if (!Array.isArray(value)) return [];
        for (let itemIndex = 0; itemIndex < value.length; itemIndex++) {
          const details = check(value[itemIndex]);
          if (details.length > 0)
            return [
              { operatorName: 'items', reason: 'At least one item did not match the sub-schema', itemIndex, details },
            ];
        }
        return [];
      },
    ];
  }
  if (!Array.isArray(items))
    throw new CommandError('TypeMismatch', "$jsonSchema keyword 'items' must be an array or an object");
  const tuple = items.map((item) => {
    if (!isPlainObject(item))
      throw new CommandError(
        'TypeMismatch',
        "$jsonSchema keyword 'items' requires that each element of the array is an object",
      );
    return compileJsonSchema(item);
  });
  const additional = schema.additionalItems;
  if (additional !== undefined && typeof additional !== 'boolean' && !isPlainObject(additional)) {
    throw new CommandError(
      'TypeMismatch',
      "$jsonSchema keyword 'additionalItems' must be either an object or a boolean",
    );
  }
  const additionalCheck = isPlainObject(additional) ? compileJsonSchema(additional) : undefined;
  return [
    (value) => {
      if (!Array.isArray(value)) return [];
      const failures: Document[] = [];
      const positional = tuple
        .map((check, index) => (index < value.length ? check(value[index]) : []))
        .map((details, index) => ({ index, details }))
        .filter((entry) => entry.details.length > 0);
      if (positional.length > 0) failures.push({ operatorName: 'items', details: positional });
      const extra = value.slice(tuple.length);
      if (additional === false && extra.length > 0) {
        failures.push({
          operatorName: 'additionalItems',
          specifiedAs: { additionalItems: false },
          reason: 'found additional items',
          additionalItems: extra,
        });
      } else if (additionalCheck) {
        const failing = extra.findIndex((item) => additionalCheck(item).length > 0);
        if (failing >= 0) {
          const details = additionalCheck(extra[failing]);
          failures.push({
            operatorName: 'additionalItems',
            reason: 'At least one additional item did not match the sub-schema',
            itemIndex: failing + tuple.length,
            details,
          });
        }
      }
      return failures;
    },
  ];
}

function logicalChecks(schema: Document): SchemaCheck[] {
  const checks: SchemaCheck[] = [];
  for (const keyword of ['allOf', 'anyOf', 'oneOf'] as const) {
    if (schema[keyword] === undefined) continue;
    const list = schema[keyword];
    if (!Array.isArray(list))
      throw new CommandError('TypeMismatch', `$jsonSchema keyword '${keyword}' must be an array`);
    if (list.length === 0)
      throw new CommandError('BadValue', `$jsonSchema keyword '${keyword}' must be a non-empty array`);
    const subschemas = list.map((item) => {
      if (!isPlainObject(item))
        throw new CommandError('TypeMismatch', `$jsonSchema keyword '${keyword}' must be an array of objects`);
      return compileJsonSchema(item);
    });
    checks.push((value) => {
      const results = subschemas.map((check, index) => ({ index, details: check(value) }));
      const failing = results.filter((result) => result.details.length > 0);
      const matching = results.filter((result) => result.details.length === 0).map((result) => result.index);
      if (keyword === 'allOf')
        return failing.length > 0 ? [{ operatorName: keyword, schemasNotSatisfied: failing }] : [];
      if (matching.length === 0) return [{ operatorName: keyword, schemasNotSatisfied: failing }];
      if (keyword === 'oneOf' && matching.length > 1)
        return [{ operatorName: keyword, reason: 'more than one subschema matched', matchingSchemaIndexes: matching }];
      return [];
    });
  }
  if (schema.not !== undefined) {
    if (!isPlainObject(schema.not))
      throw new CommandError('TypeMismatch', "$jsonSchema keyword 'not' must be an object");
    const inner = compileJsonSchema(schema.not);
    checks.push((value) =>
      inner(value).length === 0 ? [{ operatorName: 'not', reason: 'child expression matched' }] : [],
    );
  }
  return checks;
}
