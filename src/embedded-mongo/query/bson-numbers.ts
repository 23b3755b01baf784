import { Decimal128, Double, Int32, Long } from 'bson';

/**
 * Numbers as the server keeps them: a JS number is an int32 when it is an integer in the int32
 * range (that is how bson serialises it) and a double otherwise; integral doubles stay wrapped in
 * `Double`, int64 in `Long`, decimals in `Decimal128`, so each returns as the type it was written with.
 */
export type BsonNumberType = 'int' | 'long' | 'double' | 'decimal';

export function isBsonNumber(value: unknown): boolean {
  return (
    typeof value === 'number' ||
    typeof value === 'bigint' ||
    value instanceof Double ||
    value instanceof Long ||
    value instanceof Decimal128 ||
    value instanceof Int32
  );
}

/** The numeric value as a JS number (lossy beyond 2^53 and for decimals, which is fine for ordering). */
export function numberValue(value: unknown): number {
  if (typeof value === 'number') return value;
  if (value instanceof Double || value instanceof Int32) return value.value;
  if (value instanceof Long) return value.toNumber();
  if (typeof value === 'bigint') return Number(value);
  return Number(String(value));
}

export function bsonNumberType(value: unknown): BsonNumberType | undefined {
  if (typeof value === 'number') return isInt32(value) ? 'int' : 'double';
  if (value instanceof Double) return 'double';
  if (value instanceof Int32) return 'int';
  if (value instanceof Long || typeof value === 'bigint') return 'long';
  if (value instanceof Decimal128) return 'decimal';
  return undefined;
}

export function isInt32(value: number): boolean {
  return Number.isInteger(value) && value >= -2147483648 && value <= 2147483647 && !Object.is(value, -0);
}

/** A double in the server's representation: integral values keep their `Double` wrapper. */
export function makeDouble(value: number): number | Double {
  return isInt32(value) ? new Double(value) : value;
}

/** A zero of the same BSON number type as `value` (what `$mul` leaves in a missing field). */
export function zeroLike(value: unknown): unknown {
  switch (bsonNumberType(value)) {
    case 'long': return Long.fromNumber(0);
    case 'double': return new Double(0);
    case 'decimal': return Decimal128.fromString('0');
    default: return 0;
  }
}

const WIDTH: Record<BsonNumberType, number> = { int: 0, long: 1, double: 2, decimal: 3 };

/**
 * `$inc` / `$add` semantics: the result has the wider of the two types; int32 overflow widens to
 * int64 and int64 overflow to double, as mongod does.
 */
export function addNumbers(a: unknown, b: unknown, multiply = false): unknown {
  if (typeof a === 'number' && typeof b === 'number') {
    const result = multiply ? a * b : a + b;
    if (isInt32(a) && isInt32(b)) return isInt32(result) ? result : Long.fromNumber(result);
    return makeDouble(result);
  }
  const typeA = bsonNumberType(a) ?? 'int';
  const typeB = bsonNumberType(b) ?? 'int';
  const type = WIDTH[typeA] >= WIDTH[typeB] ? typeA : typeB;
  if (type === 'decimal') {
    const result = multiply ? numberValue(a) * numberValue(b) : numberValue(a) + numberValue(b);
    return Decimal128.fromString(String(result));
  }
  if (type === 'double') return makeDouble(multiply ? numberValue(a) * numberValue(b) : numberValue(a) + numberValue(b));
  const x = BigInt(Long.fromValue(toLongInput(a)).toString());
  const y = BigInt(Long.fromValue(toLongInput(b)).toString());
  const result = multiply ? x * y : x + y;
  if (type === 'int' && result >= -2147483648n && result <= 2147483647n) return Number(result);
  if (result >= -(2n ** 63n) && result < 2n ** 63n) return Long.fromBigInt(result);
  return Number(result);
}

function toLongInput(value: unknown): Long | number {
  if (value instanceof Long) return value;
  return Math.trunc(numberValue(value));
}
