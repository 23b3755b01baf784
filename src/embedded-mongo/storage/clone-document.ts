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
  for (const key of Object.keys(value)) {
    // A stored `__proto__` field stays an own field: assigning it would replace the prototype.
    if (key === '__proto__')
      Object.defineProperty(copy, key, {
        value: cloneDocument((value as Document)[key]),
        writable: true,
        enumerable: true,
        configurable: true,
      });
    else copy[key] = cloneDocument((value as Document)[key]);
  }
  return copy as T;
}
