import { Long, type Document } from 'bson';
import { CommandError } from '../base/command-error';

/** The collection named by the command's first field (`{ find: 'users' }`). */
export function collectionName(command: Document, commandName: string): string {
  const value = command[commandName];
  if (typeof value !== 'string' || value.length === 0) {
    throw new CommandError('InvalidNamespace', `collection name has invalid type ${typeOfValue(value)}`);
  }
  return value;
}

export function optionalDocument(command: Document, field: string): Document | undefined {
  const value = command[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new CommandError(
      'TypeMismatch',
      `BSON field '${field}' is the wrong type '${typeOfValue(value)}', expected type 'object'`,
    );
  }
  return value as Document;
}

export function optionalArray(command: Document, field: string): unknown[] | undefined {
  const value = command[field];
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) {
    throw new CommandError(
      'TypeMismatch',
      `BSON field '${field}' is the wrong type '${typeOfValue(value)}', expected type 'array'`,
    );
  }
  return value;
}

/** A non-negative integer option such as skip, limit or batchSize (int32, int64 or double). */
export function optionalCount(command: Document, field: string, allowNegative = false): number | undefined {
  const value = command[field];
  if (value === undefined || value === null) return undefined;
  const number = value instanceof Long ? value.toNumber() : value;
  if (typeof number !== 'number' || !Number.isFinite(number)) {
    throw new CommandError(
      'TypeMismatch',
      `BSON field '${field}' is the wrong type '${typeOfValue(value)}', expected a number`,
    );
  }
  if (number < 0 && !allowNegative)
    throw new CommandError('BadValue', `${field} must be non-negative, but received: ${number}`);
  return Math.trunc(number);
}

/** A cursor id as sent: Int64, or a number when bson promoted a small Int64. */
export function cursorId(value: unknown): Long {
  if (value instanceof Long) return value;
  if (typeof value === 'number' && Number.isInteger(value)) return Long.fromNumber(value);
  if (typeof value === 'bigint') return Long.fromBigInt(value);
  throw new CommandError('TypeMismatch', `cursor id must be an int64, got ${typeOfValue(value)}`);
}

function typeOfValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value === 'object' ? 'object' : typeof value;
}
