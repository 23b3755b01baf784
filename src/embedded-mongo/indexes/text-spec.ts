import type { Document } from 'bson';
import { CommandError } from '../base/command-error';
import type { IndexSpec } from '../storage/index-spec';

/** A key pattern with a 'text' field (`{ title: 'text', body: 'text' }` or `{ '$**': 'text' }`). */
export function isTextSpec(spec: { key: Document }): boolean {
  return Object.values(spec.key).some((direction) => direction === 'text');
}

/** The fields that stand for all text fields in a stored text index key (`{ _fts: 'text', _ftsx: 1 }`). */
export const TEXT_KEY_FIELD = '_fts';
const TEXT_KEY_SUFFIX = '_ftsx';

/**
 * Fills in what mongod stores and reports for a text index: the key with its text fields replaced
 * by `_fts: 'text', _ftsx: 1` (where the first one was), the fields as `weights`, the languages and
 * the version. Idempotent, so a spec listed by listIndexes (as Mongoose sends it back) is unchanged.
 */
export function normalizeTextSpec(spec: IndexSpec): IndexSpec {
  if (!isTextSpec(spec) || TEXT_KEY_FIELD in spec.key) return spec;
  const weights: Document = {};
  const key: Document = {};
  for (const [field, direction] of Object.entries(spec.key)) {
    if (direction !== 'text') key[field] = direction;
    else {
      weights[field] = 1;
      if (!(TEXT_KEY_FIELD in key)) Object.assign(key, { [TEXT_KEY_FIELD]: 'text', [TEXT_KEY_SUFFIX]: 1 });
    }
  }
  Object.assign(weights, (spec.weights ?? {}) as Document);
  for (const [field, weight] of Object.entries(weights)) {
    if (typeof weight !== 'number' || weight <= 0 || weight >= 100_000) {
      throw new CommandError('BadValue', `text index weight for '${field}' must be a number in (0, 100000)`);
    }
  }
  return {
    ...spec,
    key,
    weights,
    default_language: spec.default_language ?? 'english',
    language_override: spec.language_override ?? 'language',
    textIndexVersion: 3,
  };
}

/** Only one text index per collection, as in mongod. */
export function assertSingleTextIndex(existing: readonly IndexSpec[], spec: IndexSpec): void {
  const other = existing.find((index) => isTextSpec(index) && index.name !== spec.name);
  if (isTextSpec(spec) && other) {
    throw new CommandError(
      'IndexOptionsConflict',
      `Index with name: ${spec.name} already exists with different options; only one text index per collection ` +
        `(${other.name})`,
    );
  }
}
