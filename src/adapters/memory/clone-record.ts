/**
 * Deep-copies plain objects and arrays, keeping class instances (Date, ObjectId, ...) as they
 * are, so stored records never share state with callers.
 */
export function cloneRecord<T>(value: T): T {
  if (Array.isArray(value)) return value.map(cloneRecord) as T;
  if (typeof value !== 'object' || value === null) return value;
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  // Assignments into a fresh object, not a spread: a spread's copy has no room for the id field a
  // store adds later, and such records then copy more slowly on every read.
  const copy: Record<string, unknown> = {};
  // Object.keys rather than entries: no [key, value] pair per field on this per-record path.
  for (const key of Object.keys(value)) {
    const field = (value as Record<string, unknown>)[key];
    // Primitives are copied as they are, without a call per field.
    const copied = typeof field === 'object' && field !== null ? cloneRecord(field) : field;
    // Assigning `__proto__` would set the copy's prototype; an own field of that name stays a field.
    if (key === '__proto__') Object.defineProperty(copy, key, { value: copied, enumerable: true, writable: true, configurable: true });
    else copy[key] = copied;
  }
  return copy as T;
}
