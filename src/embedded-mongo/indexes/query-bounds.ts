import { ObjectId, type Document } from 'bson';
import { typeRank } from '../query/bson-compare';
import { isBsonNumber } from '../query/bson-numbers';
import { TypeEdge, pointInterval, typeInterval, type FieldInterval } from './key-bounds';

/** What a filter says about one field, as index bounds. */
export interface FieldBounds {
  /** Alternative intervals (several for `$in`), ascending, possibly overlapping. */
  readonly intervals: FieldInterval[];
  /** The condition is exactly "equals one of these scalars": the index answers it without the predicate. */
  readonly exact: boolean;
  /** Single points only (equality or `$in`), so a compound index can continue on the next field. */
  readonly points: boolean;
  /** Some bound is a string, so the index must compare strings like the query does. */
  readonly usesStrings: boolean;
  /** A lower and an upper bound from different operators (unsafe to intersect on a multikey index). */
  readonly twoSided: boolean;
}

/**
 * Index bounds for the plain field conditions of a filter (top level and top-level `$and`).
 * Conditions it does not understand produce no bounds; the full predicate still runs on the
 * candidates unless every condition is exact.
 */
export function filterBounds(filter: Document): Map<string, FieldBounds> {
  const bounds = new Map<string, FieldBounds>();
  const visit = (conditions: Document): void => {
    for (const [field, condition] of Object.entries(conditions)) {
      if (field === '$and' && Array.isArray(condition)) {
        for (const part of condition) if (isPlainObject(part)) visit(part as Document);
        continue;
      }
      if (field.startsWith('$') || bounds.has(field) || /(^|\.)\d+(\.|$)/.test(field)) continue;
      const found = conditionBounds(condition);
      if (found) bounds.set(field, found);
    }
  };
  visit(filter);
  return bounds;
}

function conditionBounds(condition: unknown): FieldBounds | undefined {
  if (!isOperatorObject(condition)) return equalityBounds([condition]);
  const operators = condition as Document;
  const keys = Object.keys(operators);
  if ('$eq' in operators) return withExactness(equalityBounds([operators.$eq]), keys.length === 1);
  if ('$in' in operators && Array.isArray(operators.$in))
    return withExactness(equalityBounds(operators.$in), keys.length === 1);
  return rangeBounds(operators);
}

function withExactness(bounds: FieldBounds | undefined, alone: boolean): FieldBounds | undefined {
  return bounds && { ...bounds, exact: bounds.exact && alone };
}

/** `{ a: v }`, `$eq` and `$in`: one point per value; null also stands for missing. */
function equalityBounds(values: unknown[]): FieldBounds | undefined {
  if (values.length === 0) return undefined;
  const intervals: FieldInterval[] = [];
  let exact = true;
  for (const value of values) {
    if (value === null || value === undefined) {
      intervals.push(typeInterval(2));
      exact = false;
    } else if (isExactScalar(value)) intervals.push(pointInterval(value));
    else return undefined;
  }
  const usesStrings = values.some((value) => typeof value === 'string');
  return { intervals, exact, points: true, usesStrings, twoSided: false };
}

/** `$gt` / `$gte` / `$lt` / `$lte`: bounded within the operand's type class, as mongod's bracketing. */
function rangeBounds(operators: Document): FieldBounds | undefined {
  let low: unknown;
  let lowInclusive = true;
  let high: unknown;
  let highInclusive = true;
  let rank: number | undefined;
  for (const [operator, operand] of Object.entries(operators)) {
    if (!['$gt', '$gte', '$lt', '$lte'].includes(operator) || !isExactScalar(operand)) continue;
    const operandRank = typeRank(operand);
    if (rank !== undefined && rank !== operandRank) continue;
    rank = operandRank;
    if (operator.startsWith('$g')) [low, lowInclusive] = [operand, operator === '$gte'];
    else [high, highInclusive] = [operand, operator === '$lte'];
  }
  if (rank === undefined) return undefined;
  const interval: FieldInterval = {
    low: low === undefined ? new TypeEdge(rank, 'start') : low,
    lowInclusive,
    high: high === undefined ? new TypeEdge(rank, 'end') : high,
    highInclusive,
  };
  return {
    intervals: [interval],
    exact: false,
    points: false,
    usesStrings: rank === 4,
    twoSided: low !== undefined && high !== undefined,
  };
}

/** Values whose index key equality is query equality: numbers, strings, booleans, ObjectIds, dates. */
function isExactScalar(value: unknown): boolean {
  return (
    (typeof value === 'number' && !Number.isNaN(value)) ||
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    (isBsonNumber(value) && typeof value !== 'bigint') ||
    value instanceof ObjectId ||
    value instanceof Date
  );
}

function isOperatorObject(value: unknown): boolean {
  if (!isPlainObject(value)) return false;
  const keys = Object.keys(value as Document);
  return keys.length > 0 && keys.every((key) => key.startsWith('$'));
}

function isPlainObject(value: unknown): boolean {
  return value !== null && typeof value === 'object' && (value as object).constructor === Object;
}
