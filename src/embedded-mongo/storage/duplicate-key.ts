import { ObjectId, type Document } from 'bson';
import { CommandError } from '../base/command-error';

/** Builds the E11000 error exactly as mongod words it, with keyPattern and keyValue for drivers. */
export function duplicateKeyError(
  namespace: string,
  indexName: string,
  keyPattern: Document,
  keyValue: Document,
): CommandError {
  const shown = Object.entries(keyValue)
    .map(([field, value]) => `${field}: ${formatValue(value)}`)
    .join(', ');
  const message = `E11000 duplicate key error collection: ${namespace} index: ${indexName} dup key: { ${shown} }`;
  return new CommandError('DuplicateKey', message, { keyPattern, keyValue });
}

function formatValue(value: unknown): string {
  if (value === undefined || value === null) return 'null';
  if (typeof value === 'string') return JSON.stringify(value);
  if (value instanceof ObjectId) return `ObjectId('${value.toHexString()}')`;
  if (value instanceof Date) return `new Date(${value.getTime()})`;
  if (Array.isArray(value)) return `[ ${value.map(formatValue).join(', ')} ]`;
  if (typeof value === 'object') {
    const inner = Object.entries(value as Document).map(([k, v]) => `${k}: ${formatValue(v)}`);
    return `{ ${inner.join(', ')} }`;
  }
  return String(value);
}
