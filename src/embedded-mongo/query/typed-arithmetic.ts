import { Long } from 'bson';
import { CommandError } from '../base/command-error';
import { arithmetic, divideNumbers, isBsonNumber, isZero, makeDouble, numberValue, widerType } from './bson-numbers';
import { bsonTypeName } from './bson-type';
import { decimalArithmetic } from './decimal-math';
import { unwrapLiteral } from './typed-literal';
import {
  operands,
  typedPathValue,
  type AccumulatorOperator,
  type EvaluationOptions,
  type ExpressionOperator,
} from './typed-operands';

/**
 * Arithmetic that keeps BSON number widths, for aggregation. mingo computes on plain JS numbers
 * (an int64 sum comes back as an int32, decimals as binary doubles); these operators read the
 * typed operands (field paths from the raw document, nested results as they were computed) and
 * compute with the width rules of `bson-numbers`. mingo's own operators cannot be replaced in its
 * context, so the pipeline names these where a computed value is kept (see `typed-pipeline.ts`).
 */
const isNullish = (value: unknown): boolean => value === null || value === undefined;

function typeError(code: 'Location16554' | 'Location16555' | 'Location16609', message: string): CommandError {
  return new CommandError(code, message);
}

const add: ExpressionOperator = (obj, expr, options) => {
  const values = operands(obj, expr, options);
  if (values.some(isNullish)) return null;
  let date: Date | undefined;
  let total: unknown = 0;
  for (const value of values) {
    if (value instanceof Date) {
      if (date) throw new CommandError('Location16612', 'only one date allowed in an $add expression');
      date = value;
    } else if (isBsonNumber(value)) total = arithmetic('add', total, value);
    else throw typeError('Location16554', `$add only supports numeric or date types, not ${bsonTypeName(value)}`);
  }
  return date ? new Date(date.getTime() + Math.round(numberValue(total))) : total;
};

const subtract: ExpressionOperator = (obj, expr, options) => {
  const values = operands(obj, expr, options);
  if (values.length !== 2)
    throw new CommandError(
      'Location16020',
      `Expression $subtract takes exactly 2 arguments. ${values.length} were passed in.`,
    );
  const [a, b] = values;
  if (isNullish(a) || isNullish(b)) return null;
  if (a instanceof Date && b instanceof Date) return Long.fromNumber(a.getTime() - b.getTime());
  if (a instanceof Date && isBsonNumber(b)) return new Date(a.getTime() - Math.round(numberValue(b)));
  if (isBsonNumber(a) && isBsonNumber(b)) return arithmetic('subtract', a, b);
  throw new CommandError('Location16556', `cant $subtract a ${bsonTypeName(b)} from a ${bsonTypeName(a)}`);
};

const multiply: ExpressionOperator = (obj, expr, options) => {
  const values = operands(obj, expr, options);
  if (values.some(isNullish)) return null;
  let product: unknown = 1;
  for (const value of values) {
    if (!isBsonNumber(value))
      throw typeError('Location16555', `$multiply only supports numeric types, not ${bsonTypeName(value)}`);
    product = arithmetic('multiply', product, value);
  }
  return product;
};

const divide: ExpressionOperator = (obj, expr, options) => {
  const values = operands(obj, expr, options);
  if (values.length !== 2)
    throw new CommandError(
      'Location16020',
      `Expression $divide takes exactly 2 arguments. ${values.length} were passed in.`,
    );
  const [a, b] = values;
  if (isNullish(a) || isNullish(b)) return null;
  if (!isBsonNumber(a) || !isBsonNumber(b)) {
    throw typeError(
      'Location16609',
      `$divide only supports numeric types, not ${bsonTypeName(a)} and ${bsonTypeName(b)}`,
    );
  }
  if (isZero(b)) throw new CommandError('BadValue', "can't $divide by zero");
  return divideNumbers(a, b);
};

/** `$sum`: numbers only (others are ignored); int32 until it overflows, then wider. */
export function sumOf(values: unknown[]): unknown {
  let total: unknown = 0;
  for (const value of values) if (isBsonNumber(value)) total = arithmetic('add', total, value);
  return total;
}

/** `$avg`: a double, or a decimal when any input is one; null without numbers. */
export function averageOf(values: unknown[]): unknown {
  const numbers = values.filter(isBsonNumber);
  if (numbers.length === 0) return null;
  const total = sumOf(numbers);
  if (widerType(total, 0) === 'decimal') return decimalArithmetic('divide', total, numbers.length);
  return makeDouble(numbers.reduce((sum: number, value) => sum + numberValue(value), 0) / numbers.length);
}

/** As accumulators they read each document's value, typed when it is a stored field. */
function accumulating(reduce: (values: unknown[]) => unknown): AccumulatorOperator {
  return (collection, wrapped, options) => {
    const expr = unwrapLiteral(wrapped);
    if (expr === null || expr === undefined) return reduce(collection);
    if (isBsonNumber(expr)) return reduce(collection.map(() => expr));
    const push = (options as EvaluationOptions).context.getOperator(
      'accumulator' as never,
      '$push',
    ) as AccumulatorOperator;
    const plain = push(collection, expr, options) as unknown[];
    return reduce(plain.map((value, i) => typedPathValue(collection[i], expr, value)));
  };
}

/**
 * As an expression, `$sum` / `$avg` take a list of operands, or one operand that is an array.
 * mingo looks expression operators up first even for `$group`, passing the group's documents.
 */
function overList(reduce: (values: unknown[]) => unknown): ExpressionOperator {
  const accumulator = accumulating(reduce);
  return (obj, expr, options) => {
    if (Array.isArray(obj)) return accumulator(obj, expr, options);
    const values = operands(obj, expr, options);
    if (!Array.isArray(expr) && Array.isArray(values[0])) return reduce(values[0] as unknown[]);
    return reduce(values);
  };
}

/** The typed operators under the names the pipeline rewrite gives them. */
export const TYPED_EXPRESSION_OPERATORS: Record<string, ExpressionOperator> = {
  $bsonAdd: add,
  $bsonSubtract: subtract,
  $bsonMultiply: multiply,
  $bsonDivide: divide,
  $bsonSum: overList(sumOf),
  $bsonAvg: overList(averageOf),
};

export const TYPED_ACCUMULATORS: Record<string, AccumulatorOperator> = {
  $bsonSum: accumulating(sumOf),
  $bsonAvg: accumulating(averageOf),
};
