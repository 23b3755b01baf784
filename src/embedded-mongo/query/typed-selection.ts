import { isBsonNumber, numberValue } from './bson-numbers';
import { unwrapLiteral } from './typed-literal';
import {
  evaluate,
  operands,
  typedPathValue,
  type AccumulatorOperator,
  type EvaluationOptions,
  type ExpressionOperator,
} from './typed-operands';

/**
 * `$first`, `$last`, `$min`, `$max`, `$push` and `$addToSet` pick values rather than compute
 * them; mingo picks among plain numbers, so an int64 or a decimal would come out as an int32 or
 * a double. These run mingo's own operator on the plain values and then hand back the typed value
 * each picked number stands for.
 */
/** Each value itself, as the expression the native accumulators evaluate per item. */
const CURRENT = '$$CURRENT';

function selecting(name: string): ExpressionOperator {
  return (obj, expr, options) => {
    const context = (options as EvaluationOptions).context;
    const native = context.getOperator('accumulator' as never, name) as AccumulatorOperator;
    let plain: unknown[];
    let typed: unknown[];
    if (Array.isArray(obj)) {
      // As an accumulator ($group): one value per document.
      const push = context.getOperator('accumulator' as never, '$push') as AccumulatorOperator;
      const argument = unwrapLiteral(expr);
      plain = push(obj, argument, options) as unknown[];
      typed = plain.map((value, i) => typedPathValue(obj[i], argument, value));
    } else if (Array.isArray(expr)) {
      typed = operands(obj, expr, options);
      plain = typed;
    } else {
      // As an expression over one array operand.
      const root = (options as EvaluationOptions).local?.root ?? obj;
      const value = evaluate(obj, expr, options);
      if (!Array.isArray(value)) return native([toPlain(value)], CURRENT, options);
      plain = value;
      typed = typedPathValue(root, expr, value) as unknown[];
    }
    const comparable = plain.map(toPlain);
    return retype(native(comparable, CURRENT, options), comparable, typed);
  };
}

/** mingo compares plain numbers only: typed operands (literals, nested results) are unwrapped for it. */
function toPlain(value: unknown): unknown {
  const unwrapped = unwrapLiteral(value);
  return unwrapped !== null && typeof unwrapped === 'object' && isBsonNumber(unwrapped)
    ? numberValue(unwrapped)
    : unwrapped;
}

/** Maps a picked plain number (or an array of them) back to the typed value at the same position. */
function retype(result: unknown, plain: unknown[], typed: unknown[]): unknown {
  const lookup = (value: unknown): unknown => {
    if (!isBsonNumber(value)) return value;
    const index = plain.findIndex((candidate) => candidate === value);
    return index >= 0 ? typed[index] : value;
  };
  return Array.isArray(result) ? result.map(lookup) : lookup(result);
}

export const TYPED_SELECTION_OPERATORS: Record<string, ExpressionOperator> = {
  $bsonFirst: selecting('$first'),
  $bsonLast: selecting('$last'),
  $bsonMin: selecting('$min'),
  $bsonMax: selecting('$max'),
  $bsonPush: selecting('$push'),
  $bsonAddToSet: selecting('$addToSet'),
};
