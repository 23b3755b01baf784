import { isPlainObject } from '../../domain/plain-record';

/**
 * Deep-copies plain objects and arrays, keeping class instances (Date, ObjectId, ...) as they
 * are, so stored records never share state with callers. This is the copy a store keeps.
 */
export function cloneRecord<T>(value: T): T {
  if (Array.isArray(value)) return value.map(cloneRecord) as T;
  if (!isPlainObject(value)) return value;
  // Assignments into a fresh object, not a spread: a spread's copy has no room for the id field a
  // store adds later, and such records then copy more slowly on every read.
  const copy: Record<string, unknown> = {};
  // Object.keys rather than entries: no [key, value] pair per field on this per-record path.
  for (const key of Object.keys(value)) {
    const field = (value as Record<string, unknown>)[key];
    // Primitives are copied as they are, without a call per field.
    setOwnField(copy, key, typeof field === 'object' && field !== null ? cloneRecord(field) : field);
  }
  return copy as T;
}

/**
 * The same deep copy, of a record the store keeps (so made by `cloneRecord`), for a caller to
 * read: a spread copies all of a plain object's fields in one step, and its copy serializes
 * faster too; only nested objects and arrays are then copied one by one.
 */
export function copyStoredRecord<T>(value: T): T {
  if (Array.isArray(value)) return value.map(copyStoredRecord) as T;
  if (!isPlainObject(value)) return value;
  const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const key in copy) {
    const field = copy[key];
    // `hasOwn` only here: `for...in` also lists what someone made enumerable on Object.prototype.
    if (typeof field === 'object' && field !== null && Object.hasOwn(copy, key))
      setOwnField(copy, key, copyStoredRecord(field));
  }
  return copy as T;
}

function setOwnField(target: Record<string, unknown>, key: string, value: unknown): void {
  // Assigning `__proto__` would set the copy's prototype; an own field of that name stays a field.
  if (key === '__proto__')
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}
