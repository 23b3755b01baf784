import { Decimal128, Double, Int32, Long } from 'bson';
import Decimal from 'decimal.js';

/** IEEE 754 decimal128 arithmetic: 34 significant digits, ties to even, its exponent range. */
const Dec128 = Decimal.clone({
  precision: 34,
  rounding: Decimal.ROUND_HALF_EVEN,
  toExpNeg: -7,
  toExpPos: 34,
  minE: -6176,
  maxE: 6144,
});

/** A decimal operand: its value and its exponent (the scale that keeps trailing zeros, as mongod does). */
export interface DecimalOperand {
  readonly value: Decimal;
  readonly exponent: number;
}

const NOTATION = /^([+-]?)(\d+)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/** Parses a decimal string keeping its exponent ('3.30' has exponent -2, '1.0E+3' has 2). */
function parseDecimal(text: string): DecimalOperand {
  const match = NOTATION.exec(text);
  if (!match) return { value: new Dec128(text), exponent: 0 };
  const exponent = Number(match[4] ?? 0) - (match[3]?.length ?? 0);
  return { value: new Dec128(text), exponent };
}

/**
 * A number as a decimal operand the way mongod converts it for decimal arithmetic: int32 and int64
 * exactly, doubles rounded to 15 significant digits (so 0.2 becomes 0.200000000000000).
 */
export function decimalOperand(value: unknown): DecimalOperand {
  if (value instanceof Decimal128) return parseDecimal(value.toString());
  if (value instanceof Long) return { value: new Dec128(value.toString()), exponent: 0 };
  if (typeof value === 'bigint') return { value: new Dec128(value.toString()), exponent: 0 };
  const number = value instanceof Double || value instanceof Int32 ? value.value : Number(value);
  if (!Number.isFinite(number)) return { value: new Dec128(number), exponent: 0 };
  if (
    value instanceof Int32 ||
    (typeof value === 'number' && Number.isInteger(number) && Math.abs(number) <= 2147483647)
  ) {
    return { value: new Dec128(number), exponent: 0 };
  }
  return parseDecimal(number.toPrecision(15));
}

export type DecimalOperation = 'add' | 'subtract' | 'multiply' | 'divide';

/**
 * Decimal arithmetic with IEEE 754-2008's preferred exponent: an exact result keeps the scale
 * of its operands (1.10 + 2.20 is 3.30, not 3.3); an inexact one has all 34 digits.
 */
export function decimalArithmetic(operation: DecimalOperation, a: unknown, b: unknown): Decimal128 {
  const x = decimalOperand(a);
  const y = decimalOperand(b);
  let result: Decimal;
  let preferred: number;
  switch (operation) {
    case 'add':
      result = x.value.plus(y.value);
      preferred = Math.min(x.exponent, y.exponent);
      break;
    case 'subtract':
      result = x.value.minus(y.value);
      preferred = Math.min(x.exponent, y.exponent);
      break;
    case 'multiply':
      result = x.value.times(y.value);
      preferred = x.exponent + y.exponent;
      break;
    case 'divide':
      result = x.value.dividedBy(y.value);
      preferred = x.exponent - y.exponent;
      break;
  }
  return toDecimal128(result, preferred);
}

/** Divides a decimal total by a count (for `$avg`): scale as the division gives it. */
export function decimalAverage(total: unknown, count: number): Decimal128 {
  return decimalArithmetic('divide', total, count);
}

/** Writes a decimal.js value as a Decimal128, padding trailing zeros towards the preferred exponent. */
export function toDecimal128(value: Decimal, preferredExponent: number): Decimal128 {
  if (value.isNaN()) return Decimal128.fromString('NaN');
  if (!value.isFinite()) return Decimal128.fromString(value.isNegative() ? '-Infinity' : 'Infinity');
  const sign = value.isNegative() ? '-' : '';
  if (value.isZero()) return Decimal128.fromString(`${sign}0E${clampExponent(preferredExponent)}`);
  const [mantissa, power] = value.abs().toExponential().split('e');
  let digits = mantissa.replace('.', '');
  let exponent = Number(power) - (digits.length - 1);
  while (exponent > preferredExponent && digits.length < 34) {
    digits += '0';
    exponent -= 1;
  }
  return Decimal128.fromString(`${sign}${digits}E${exponent}`);
}

function clampExponent(exponent: number): number {
  return Math.max(-6176, Math.min(6111, exponent));
}

/** The exact value of a number for comparisons (a double's binary value, digit for digit). */
export function exactDecimal(value: unknown): Decimal {
  if (value instanceof Decimal128) return new Dec128(value.toString());
  if (value instanceof Long || typeof value === 'bigint') return new Dec128(value.toString());
  const number = value instanceof Double || value instanceof Int32 ? value.value : Number(value);
  if (!Number.isFinite(number) || Number.isInteger(number))
    return new Dec128(Number.isInteger(number) ? BigInt(number).toString() : number);
  return new Dec128(exactDoubleString(number));
}

/** A finite, non-integral double written out exactly: mantissa * 2^exponent as a decimal string. */
function exactDoubleString(value: number): string {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, value);
  const bits = view.getBigUint64(0);
  const negative = bits >> 63n === 1n;
  const biased = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & ((1n << 52n) - 1n);
  const mantissa = biased === 0 ? fraction : fraction | (1n << 52n);
  const shift = 1075 - (biased === 0 ? 1 : biased);
  // mantissa / 2^shift = mantissa * 5^shift / 10^shift
  const scaled = (mantissa * 5n ** BigInt(shift)).toString().padStart(shift + 1, '0');
  const text = `${scaled.slice(0, scaled.length - shift)}.${scaled.slice(scaled.length - shift)}`;
  return negative ? `-${text}` : text;
}
