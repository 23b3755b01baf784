import { Binary, ObjectId, type Document } from 'bson';
import { isBsonNumber, numberValue } from '../query/bson-numbers';

/** A value as mongod prints it in update error messages (`[ 1, 2 ]`, `{ a: "x" }`, `ObjectId('…')`). */
export function describeValue(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (typeof value === 'string') return JSON.stringify(value);
  if (isBsonNumber(value)) return String(numberValue(value));
  if (Array.isArray(value)) return value.length === 0 ? '[]' : `[ ${value.map(describeValue).join(', ')} ]`;
  if (value instanceof ObjectId) return `ObjectId('${value.toHexString()}')`;
  if (value instanceof Date) return `new Date(${value.getTime()})`;
  if (value instanceof Binary)
    return `BinData(${value.sub_type}, ${Buffer.from(value.value()).toString('hex').toUpperCase()})`;
  if (typeof value === 'object' && value.constructor === Object) {
    const entries = Object.keys(value).map((key) => `${key}: ${describeValue((value as Document)[key])}`);
    return entries.length === 0 ? '{}' : `{ ${entries.join(', ')} }`;
  }
  return String(value);
}

/** One field as mongod prints an element: `{a: [ 1, 2 ]}`. */
export function describeElement(field: string, value: unknown): string {
  return `{${field}: ${describeValue(value)}}`;
}
