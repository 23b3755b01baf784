/**
 * Deep-copies plain objects and arrays, keeping class instances (Date, ObjectId, ...) as they
 * are, so stored records never share state with callers.
 */
export function cloneRecord<T>(value: T): T {
  if (Array.isArray(value)) return value.map(cloneRecord) as T;
  if (typeof value !== 'object' || value === null) return value;
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  const copy: Record<string, unknown> = {};
  // Object.keys rather than entries: no [key, value] pair per field on this per-record path.
  for (const key of Object.keys(value)) {
    const field = (value as Record<string, unknown>)[key];
    // Primitives are copied as they are, without a call per field.
    copy[key] = typeof field === 'object' && field !== null ? cloneRecord(field) : field;
  }
  return copy as T;
}
