import type { Document } from 'bson';
import { pathValues } from '../storage/path-values';

/** Compound keys over several array fields explode combinatorially; mongod refuses such documents too. */
const MAX_KEYS_PER_DOCUMENT = 10_000;

export interface DocumentKeys {
  readonly keys: unknown[][];
  /** Some path reached an array: the document has one key per element. */
  readonly multikey: boolean;
}

/**
 * The index keys of a document for the given fields: one tuple per combination of values, arrays
 * contributing each element (multikey), a missing field contributing `undefined` (null-equivalent).
 */
export function documentKeys(doc: Document, fields: readonly string[]): DocumentKeys {
  let keys: unknown[][] = [[]];
  let multikey = false;
  for (const field of fields) {
    const values = pathValues(doc, field);
    if (values.length > 1 || hasArrayOnPath(doc, field)) multikey = true;
    const next: unknown[][] = [];
    for (const prefix of keys) for (const value of values) next.push([...prefix, value]);
    if (next.length > MAX_KEYS_PER_DOCUMENT) throw new Error('too many index keys for one document');
    keys = next;
  }
  return { keys, multikey };
}

function hasArrayOnPath(doc: Document, path: string): boolean {
  let value: unknown = doc;
  for (const part of path.split('.')) {
    if (Array.isArray(value)) return true;
    if (value === null || typeof value !== 'object') return false;
    value = (value as Document)[part];
  }
  return Array.isArray(value);
}
