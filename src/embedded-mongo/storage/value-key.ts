import { Binary, Decimal128, Double, Int32, Long, ObjectId, Timestamp } from 'bson';

/**
 * A canonical string for a BSON value, equal exactly when MongoDB treats the values as equal
 * for `_id` and unique-index purposes: numbers compare by value across int, long and double,
 * objects compare with key order. Used as Map keys so lookups by `_id` never scan.
 */
export function valueKey(value: unknown): string {
  switch (typeof value) {
    case 'number':
      return `n${value}`;
    case 'string':
      return `s${JSON.stringify(value)}`;
    case 'boolean':
      return value ? 'T' : 'F';
    case 'undefined':
      return 'z';
    case 'bigint':
      return `n${value}`;
    default:
      return objectKey(value);
  }
}

function objectKey(value: unknown): string {
  if (value === null) return 'z';
  if (value instanceof ObjectId) return `o${value.toHexString()}`;
  if (value instanceof Date) return `d${value.getTime()}`;
  if (Array.isArray(value)) return `[${value.map(valueKey).join(',')}]`;
  if (value instanceof Long) return `n${value.toString()}`;
  if (value instanceof Double || value instanceof Int32) return `n${value.value}`;
  if (value instanceof Decimal128) return `n${Number(value.toString())}`;
  if (value instanceof Binary) return `x${value.sub_type}:${Buffer.from(value.buffer).toString('base64')}`;
  if (value instanceof Timestamp) return `t${value.toString()}`;
  if (value instanceof RegExp) return `r${value.source}/${value.flags}`;
  const entries = Object.entries(value as Record<string, unknown>).map(
    ([k, v]) => `${JSON.stringify(k)}:${valueKey(v)}`,
  );
  return `{${entries.join(',')}}`;
}
