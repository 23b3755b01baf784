import type { Document } from 'bson';

/**
 * Copies plain objects, arrays and dates; BSON value classes (ObjectId, Long, Binary...) are
 * immutable in practice and shared. Stored documents are never mutated, so writers clone first.
 */
export function cloneDocument<T>(value: T): T {
  if (Array.isArray(value)) return value.map(cloneDocument) as T;
  if (value instanceof Date) return new Date(value.getTime()) as T;
  if (value === null || typeof value !== 'object' || value.constructor !== Object) return value;
  const copy: Document = {};
  for (const key of Object.keys(value)) copy[key] = cloneDocument((value as Document)[key]);
  return copy as T;
}
