/** A plain object with string keys: not null, not an array. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A copy of `record` without `fields` (hidden fields, fields a client may not set). */
export function withoutFields(record: object, fields: Iterable<string>): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...(record as Record<string, unknown>) };
  for (const field of fields) delete copy[field];
  return copy;
}
