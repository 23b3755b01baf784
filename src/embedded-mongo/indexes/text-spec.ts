import type { Document } from 'bson';
import { CommandError } from '../base/command-error';
import type { IndexSpec } from '../storage/index-spec';

/** A key pattern with a 'text' field (`{ title: 'text', body: 'text' }` or `{ '$**': 'text' }`). */
export function isTextSpec(spec: { key: Document }): boolean {
  return Object.values(spec.key).some((direction) => direction === 'text');
}

/** Fills in what mongod reports for a text index (weights, language, version). */
export function normalizeTextSpec(spec: IndexSpec): IndexSpec {
  if (!isTextSpec(spec)) return spec;
  const weights: Document = {};
  for (const [field, direction] of Object.entries(spec.key)) if (direction === 'text') weights[field] = 1;
  Object.assign(weights, (spec.weights ?? {}) as Document);
  for (const [field, weight] of Object.entries(weights)) {
    if (typeof weight !== 'number' || weight <= 0 || weight >= 100_000) {
      throw new CommandError('BadValue', `text index weight for '${field}' must be a number in (0, 100000)`);
    }
  }
  return { ...spec, weights, default_language: spec.default_language ?? 'english', language_override: spec.language_override ?? 'language', textIndexVersion: 3 };
}

/** Only one text index per collection, as in mongod. */
export function assertSingleTextIndex(existing: readonly IndexSpec[], spec: IndexSpec): void {
  const other = existing.find((index) => isTextSpec(index) && index.name !== spec.name);
  if (isTextSpec(spec) && other) {
    throw new CommandError('IndexOptionsConflict', `Index with name: ${spec.name} already exists with different options; only one text index per collection (${other.name})`);
  }
}
