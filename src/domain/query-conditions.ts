import { BadRequest } from './errors';
import { echoValue } from './echo';
import { isPlainObject } from './plain-record';
import { LIST_OPERATORS, MAX_QUERY_DEPTH, QUERY_COMBINATORS, VALUE_OPERATORS } from './query';

/** What `mapConditions` does with each part of a query. */
export interface ConditionVisitor {
  /** The replacement of one condition: a field's (`text: { $ne: 'x' }`) or a top-level key's (`$text`, `$limit`). */
  field(key: string, value: unknown, depth: number): unknown;
  /** Called before a combinator's branches (`$or`, `$and`, `$nor`) are walked; throw to refuse it. */
  combinator?(key: string): void;
}

/**
 * The one walk over a query's conditions: a fresh object in which every condition is replaced by
 * `visitor.field`, descending into the branches of `$or`, `$and` and `$nor` (each an array of
 * queries) up to `MAX_QUERY_DEPTH`.
 */
export function mapConditions(
  query: Record<string, unknown>,
  visitor: ConditionVisitor,
  depth = 0,
): Record<string, unknown> {
  if (depth > MAX_QUERY_DEPTH) throw new BadRequest('The query is nested too deeply');
  const mapped: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(query)) {
    if (QUERY_COMBINATORS.has(key)) {
      visitor.combinator?.(key);
      if (!Array.isArray(value)) throw new BadRequest(`${key} must be an array of queries`);
      mapped[key] = value.map((branch) => {
        if (typeof branch !== 'object' || branch === null || Array.isArray(branch))
          throw new BadRequest(`${key} must be an array of queries`);
        return mapConditions(branch as Record<string, unknown>, visitor, depth + 1);
      });
    } else {
      mapped[key] = visitor.field(key, value, depth + 1);
    }
  }
  return mapped;
}

/**
 * Converts the values a field's condition compares with, and only those: a plain value, each item
 * of an array or of a list operand (`$in`, `$nin`, `$all`), the operand of a comparison (`$eq`,
 * `$ne`, `$gt`, `$gte`, `$lt`, `$lte`), and inside `$not`. Other operators (`$exists`, `$regex`,
 * ...) are kept as they are. Dates and class instances (ObjectId, RegExp) are values.
 */
export function mapOperands(condition: unknown, convert: (value: unknown) => unknown): unknown {
  if (Array.isArray(condition)) return condition.map(convert);
  if (!isOperatorObject(condition)) return convert(condition);
  const mapped: Record<string, unknown> = {};
  for (const [operator, operand] of Object.entries(condition)) {
    if (LIST_OPERATORS.has(operator)) {
      if (!Array.isArray(operand))
        throw new BadRequest(`${operator} needs an array`, { [operator]: echoValue(operand) });
      mapped[operator] = operand.map(convert);
    } else if (VALUE_OPERATORS.has(operator)) {
      mapped[operator] = convert(operand);
    } else if (operator === '$not') {
      mapped[operator] = mapOperands(operand, convert);
    } else {
      mapped[operator] = operand;
    }
  }
  return mapped;
}

/** A plain object whose keys are all operators (`{ $in: [...] }`); `{}` is a value. */
export function isOperatorObject(value: unknown): value is Record<string, unknown> {
  if (!isPlainObject(value)) return false;
  const keys = Object.keys(value);
  return keys.length > 0 && keys.every((key) => key.startsWith('$'));
}
