import { Decimal128, Double, Int32, Long } from 'bson';
import { decimalArithmetic, exactDecimal } from './decimal-math';

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
    case 'long':
      return Long.fromNumber(0);
    case 'double':
      return new Double(0);
    case 'decimal':
      return Decimal128.fromString('0');
    default:
      return 0;
  }
}

const WIDTH: Record<BsonNumberType, number> = { int: 0, long: 1, double: 2, decimal: 3 };
const INT64_MIN = -(2n ** 63n);
const INT64_LIMIT = 2n ** 63n;

export type ArithmeticOperation = 'add' | 'subtract' | 'multiply';

/** The wider of two number types (int < long < double < decimal): the type of their sum or product. */
export function widerType(a: unknown, b: unknown): BsonNumberType {
  const typeA = bsonNumberType(a) ?? 'int';
  const typeB = bsonNumberType(b) ?? 'int';
  return WIDTH[typeA] >= WIDTH[typeB] ? typeA : typeB;
}

/**
 * `$inc`, `$add`, `$subtract`, `$multiply`, `$sum` semantics: the result has the wider of the two
 * types; int32 overflow widens to int64 and int64 overflow to double, as mongod does; a decimal
 * operand makes the arithmetic decimal (exact, 34 digits), never binary floating point.
 */
export function arithmetic(operation: ArithmeticOperation, a: unknown, b: unknown): unknown {
  const type = widerType(a, b);
  if (type === 'decimal') return decimalArithmetic(operation, a, b);
  if (type === 'double') return makeDouble(doubleArithmetic(operation, numberValue(a), numberValue(b)));
  const x = integerValue(a);
  const y = integerValue(b);
  const result = operation === 'add' ? x + y : operation === 'subtract' ? x - y : x * y;
  if (type === 'int' && result >= -2147483648n && result <= 2147483647n) return Number(result);
  if (result >= INT64_MIN && result < INT64_LIMIT) return Long.fromBigInt(result);
  return makeDouble(doubleArithmetic(operation, numberValue(a), numberValue(b)));
}

/** `$inc` / `$mul` (kept for the update path): addition, or multiplication when asked. */
export function addNumbers(a: unknown, b: unknown, multiply = false): unknown {
  return arithmetic(multiply ? 'multiply' : 'add', a, b);
}

/** `$divide`: a double, or a decimal when either operand is one. */
export function divideNumbers(a: unknown, b: unknown): unknown {
  if (widerType(a, b) === 'decimal') return decimalArithmetic('divide', a, b);
  return makeDouble(numberValue(a) / numberValue(b));
}

/** Zero of any width (a division by it is an error in mongod). */
export function isZero(value: unknown): boolean {
  if (value instanceof Decimal128) return exactDecimal(value).isZero();
  if (value instanceof Long) return value.isZero();
  return numberValue(value) === 0;
}

function doubleArithmetic(operation: ArithmeticOperation, x: number, y: number): number {
  return operation === 'add' ? x + y : operation === 'subtract' ? x - y : x * y;
}

function integerValue(value: unknown): bigint {
  if (value instanceof Long) return BigInt(value.toString());
  if (typeof value === 'bigint') return value;
  return BigInt(Math.trunc(numberValue(value)));
}

/**
 * Orders two numbers of any widths exactly, as mongod does: int64 beyond 2^53 against each other
 * and against doubles, decimals against everything. NaN sorts before every other number.
 */
export function compareNumbers(a: unknown, b: unknown): number {
  const typeA = bsonNumberType(a);
  const typeB = bsonNumberType(b);
  if (typeA === 'decimal' || typeB === 'decimal') {
    const x = exactDecimal(a);
    const y = exactDecimal(b);
    if (x.isNaN() || y.isNaN()) return x.isNaN() ? (y.isNaN() ? 0 : -1) : 1;
    return x.comparedTo(y);
  }
  if (typeA === 'long' || typeB === 'long') {
    if (typeA === 'long' && typeB === 'long') return Math.sign(Number(integerValue(a) - integerValue(b)));
    return typeA === 'long'
      ? compareLongToNumber(integerValue(a), numberValue(b))
      : -compareLongToNumber(integerValue(b), numberValue(a));
  }
  const x = numberValue(a);
  const y = numberValue(b);
  if (Number.isNaN(x) || Number.isNaN(y)) return Number.isNaN(x) ? (Number.isNaN(y) ? 0 : -1) : 1;
  return x < y ? -1 : x > y ? 1 : 0;
}

function compareLongToNumber(long: bigint, number: number): number {
  if (Number.isNaN(number)) return 1;
  if (number === Infinity) return -1;
  if (number === -Infinity) return 1;
  const floor = BigInt(Math.floor(number));
  if (long < floor) return -1;
  if (long > floor) return 1;
  return Number.isInteger(number) ? 0 : -1;
}

/** Integral numbers beyond 2^53 that a JS number cannot hold exactly (such values need exact comparison). */
export function isBeyondDoublePrecision(value: unknown): boolean {
  if (value instanceof Long)
    return (
      value.greaterThan(Long.fromNumber(Number.MAX_SAFE_INTEGER)) ||
      value.lessThan(Long.fromNumber(-Number.MAX_SAFE_INTEGER))
    );
  const type = bsonNumberType(value);
  return (
    (type === 'double' || type === 'int') &&
    Math.abs(numberValue(value)) >= 2 ** 53 &&
    Number.isFinite(numberValue(value))
  );
}
