import { Binary, BSONRegExp, MaxKey, MinKey, ObjectId, Timestamp } from 'bson';
import { compareNumbers, isBsonNumber } from './bson-numbers';

/** MongoDB's cross-type sort order (numbers of all widths form one class). */
export function typeRank(value: unknown): number {
  if (value === undefined || value === null) return 2;
  switch (typeof value) {
    case 'number':
    case 'bigint':
      return 3;
    case 'string':
      return 4;
    case 'boolean':
      return 9;
  }
  if (value instanceof MinKey) return 1;
  if (value instanceof MaxKey) return 100;
  if (isBsonNumber(value)) return 3;
  if (Array.isArray(value)) return 6;
  if (value instanceof Binary) return 7;
  if (value instanceof ObjectId) return 8;
  if (value instanceof Date) return 10;
  if (value instanceof Timestamp) return 11;
  if (value instanceof RegExp || value instanceof BSONRegExp) return 12;
  return 5;
}

/**
 * Compares two BSON values the way the server orders them, with an optional string comparator
 * for collation. mingo orders ObjectId after Date and compares Long/Decimal128 as strings.
 */
export function compareBson(a: unknown, b: unknown, compareStrings?: (x: string, y: string) => number): number {
  const rankA = typeRank(a);
  const rankB = typeRank(b);
  if (rankA !== rankB) return rankA < rankB ? -1 : 1;
  switch (rankA) {
    case 3:
      // Exact across widths: int64 beyond 2^53 and decimals are not rounded to doubles.
      return compareNumbers(a, b);
    case 4:
      return compareStrings ? compareStrings(a as string, b as string) : a! < b! ? -1 : a! > b! ? 1 : 0;
    case 5:
      return compareObjects(a as Record<string, unknown>, b as Record<string, unknown>, compareStrings);
    case 6:
      return compareArrays(a as unknown[], b as unknown[], compareStrings);
    case 7:
      return compareBinData(a as Binary, b as Binary);
    case 8:
      return (a as ObjectId).toHexString().localeCompare((b as ObjectId).toHexString());
    case 9:
      return Number(a) - Number(b);
    case 10:
      return Math.sign((a as Date).getTime() - (b as Date).getTime());
    case 11:
      return (a as Timestamp).compare(b as Timestamp);
    default:
      return String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
  }
}

function compareArrays(a: unknown[], b: unknown[], compareStrings?: (x: string, y: string) => number): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const order = compareBson(a[i], b[i], compareStrings);
    if (order !== 0) return order;
  }
  return Math.sign(a.length - b.length);
}

function compareObjects(
  a: Record<string, unknown>,
  b: Record<string, unknown>,
  compareStrings?: (x: string, y: string) => number,
): number {
  const aEntries = Object.entries(a);
  const bEntries = Object.entries(b);
  for (let i = 0; i < Math.min(aEntries.length, bEntries.length); i++) {
    const keyOrder = compareBson(aEntries[i][0], bEntries[i][0]);
    if (keyOrder !== 0) return keyOrder;
    const valueOrder = compareBson(aEntries[i][1], bEntries[i][1], compareStrings);
    if (valueOrder !== 0) return valueOrder;
  }
  return Math.sign(aEntries.length - bEntries.length);
}

/** BinData orders by length, then subtype, then bytes. */
function compareBinData(a: Binary, b: Binary): number {
  const length = Math.sign(a.length() - b.length());
  if (length !== 0) return length;
  if (a.sub_type !== b.sub_type) return a.sub_type < b.sub_type ? -1 : 1;
  return Buffer.compare(a.value(), b.value());
}
