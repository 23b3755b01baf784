import { Binary, Decimal128, Long } from 'bson';
import { CommandError } from '../base/command-error';
import { isBsonNumber, numberValue } from './bson-numbers';
import { pathValuesOf } from './bson-type';

type Predicate = (obj: unknown) => boolean;
type QueryOperator = (selector: string, operand: unknown) => Predicate;
/** Whether bit `position` of a stored value is set. */
type BitReader = (position: number) => boolean;

/**
 * `$bitsAllSet`, `$bitsAnySet`, `$bitsAllClear` and `$bitsAnyClear` as mongod runs them: on numbers
 * representable as a signed 64-bit integer (two's complement, so a negative number has every bit
 * above 63 set) and on BinData, whose bit positions run over the bytes little-endian (position 0 is
 * the lowest bit of the first byte; positions past the end are clear). mingo reads only the low 32
 * bits of numbers and nothing of BinData. The mask is a list of positions, a non-negative integer
 * or a BinData.
 */
function bitOperator(name: string, test: (bits: boolean[]) => boolean): QueryOperator {
  return (selector, operand) => {
    const positions = maskPositions(name, operand);
    return (obj) =>
      pathValuesOf(obj, selector).some((value) => {
        const read = bitReader(value);
        return read !== undefined && test(positions.map(read));
      });
  };
}

export const BIT_QUERY_OPERATORS: Record<string, QueryOperator> = {
  $bsonBitsAllSet: bitOperator('$bitsAllSet', (bits) => bits.every(Boolean)),
  $bsonBitsAnySet: bitOperator('$bitsAnySet', (bits) => bits.some(Boolean)),
  $bsonBitsAllClear: bitOperator('$bitsAllClear', (bits) => bits.every((bit) => !bit)),
  $bsonBitsAnyClear: bitOperator('$bitsAnyClear', (bits) => bits.some((bit) => !bit)),
};

function bitReader(value: unknown): BitReader | undefined {
  if (value instanceof Binary) {
    const bytes = value.value();
    return (position) => position >> 3 < bytes.length && (bytes[position >> 3] & (1 << (position & 7))) !== 0;
  }
  const integer = asInt64(value);
  if (integer === undefined) return undefined;
  return (position) => (position > 63 ? integer < 0n : ((integer >> BigInt(position)) & 1n) === 1n);
}

/** The value as a signed 64-bit integer, when it is a number that has one. */
function asInt64(value: unknown): bigint | undefined {
  if (value instanceof Long) return value.toBigInt();
  if (typeof value === 'bigint') return BigInt.asIntN(64, value);
  if (value instanceof Decimal128) {
    const text = value.toString();
    return /^-?\d+$/.test(text) ? inInt64Range(BigInt(text)) : undefined;
  }
  if (!isBsonNumber(value)) return undefined;
  const number = numberValue(value);
  return Number.isInteger(number) ? inInt64Range(BigInt(number)) : undefined;
}

function inInt64Range(value: bigint): bigint | undefined {
  return BigInt.asIntN(64, value) === value ? value : undefined;
}

function maskPositions(name: string, operand: unknown): number[] {
  if (operand instanceof Binary) {
    const bytes = operand.value();
    const positions: number[] = [];
    bytes.forEach((byte, index) => {
      for (let bit = 0; bit < 8; bit++) if (byte & (1 << bit)) positions.push(index * 8 + bit);
    });
    return positions;
  }
  if (Array.isArray(operand)) {
    return operand.map((item) => {
      const position = isBsonNumber(item) ? numberValue(item) : NaN;
      if (!Number.isInteger(position))
        throw new CommandError('BadValue', `bit positions must be an integer but got: ${String(item)}`);
      if (position < 0) throw new CommandError('BadValue', `bit positions must be >= 0 but got: ${position}`);
      return position;
    });
  }
  if (isBsonNumber(operand)) {
    const mask = asInt64(operand);
    if (mask === undefined || mask < 0n)
      throw new CommandError(
        'BadValue',
        `${name} bitmask must be a non-negative integer, got: ${String(numberValue(operand))}`,
      );
    const positions: number[] = [];
    for (let bit = 0; bit < 63; bit++) if ((mask >> BigInt(bit)) & 1n) positions.push(bit);
    return positions;
  }
  throw new CommandError('BadValue', `${name} takes an Array, a number, or a BinData but received: ${String(operand)}`);
}
