import type { Document } from 'bson';
import { CommandError } from '../base/command-error';
import { isBsonNumber, numberValue } from '../query/bson-numbers';
import { parseCollation } from '../query/collation';

/**
 * An index as listIndexes reports it (key pattern plus options: unique, sparse, partial, collation, text weights...).
 */
export interface IndexSpec {
  readonly v: number;
  readonly key: Document;
  readonly name: string;
  readonly unique?: boolean;
  readonly sparse?: boolean;
  readonly partialFilterExpression?: Document;
  readonly [option: string]: unknown;
}

export const ID_INDEX: IndexSpec = { v: 2, key: { _id: 1 }, name: '_id_' };

/** The name the server derives from a key pattern: `{ a: 1, b: -1 }` -> `a_1_b_-1`. */
export function defaultIndexName(key: Document): string {
  return Object.entries(key)
    .map(([field, direction]) => `${field}_${String(direction)}`)
    .join('_');
}

/** Validates a createIndexes entry and fills in `v` and `name`. */
export function normalizeIndexSpec(raw: unknown): IndexSpec {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new CommandError('TypeMismatch', 'each index specification must be an object');
  }
  const spec = raw as Document;
  const key = spec.key as Document | undefined;
  if (!key || typeof key !== 'object' || Object.keys(key).length === 0) {
    throw new CommandError('BadValue', "index specification must have a non-empty 'key' object");
  }
  const name = typeof spec.name === 'string' && spec.name.length > 0 ? spec.name : defaultIndexName(key);
  if (name === '_id_' && !isIdKey(key))
    throw new CommandError('BadValue', "the index name '_id_' is reserved for the _id index");
  for (const [field, direction] of Object.entries(key)) {
    const valid =
      direction === 'text' ||
      ['2d', '2dsphere', 'hashed'].includes(direction as string) ||
      (isBsonNumber(direction) && numberValue(direction) !== 0);
    if (!valid)
      throw new CommandError(
        'CannotCreateIndex',
        `Values in the index key pattern can't be ${String(direction)} (field '${field}')`,
      );
  }
  // Validates the collation; `simple` means none, as mongod omits it then.
  const collation = parseCollation(spec.collation);
  const normalized: Document = { v: 2, ...spec, key, name };
  if (!collation) delete normalized.collation;
  if (isIdKey(key)) delete normalized.unique;
  return normalized as IndexSpec;
}

export function isIdKey(key: Document): boolean {
  const fields = Object.keys(key);
  return fields.length === 1 && fields[0] === '_id';
}

/** Options that make two indexes with the same name and key different indexes (mongod then refuses the second). */
const IDENTITY_OPTIONS = [
  'unique',
  'sparse',
  'partialFilterExpression',
  'collation',
  'weights',
  'default_language',
  'language_override',
  '2dsphereIndexVersion',
];

/** Whether a requested index repeats an existing one (creating it again is then a no-op, as in mongod). */
export function sameIndexOptions(existing: IndexSpec, requested: IndexSpec): boolean {
  return IDENTITY_OPTIONS.every((option) => {
    const a = existing[option];
    const b = requested[option];
    if (option === 'unique' || option === 'sparse') return Boolean(a) === Boolean(b);
    return JSON.stringify(a) === JSON.stringify(b);
  });
}

/** Two specs name the same index if their keys match exactly (field order included). */
export function sameKey(a: Document, b: Document): boolean {
  const aFields = Object.entries(a);
  const bFields = Object.entries(b);
  return aFields.length === bFields.length && aFields.every(([f, d], i) => bFields[i][0] === f && bFields[i][1] === d);
}
