import { Binary, type Document } from 'bson';
import { compareBson, typeRank } from './bson-compare';
import { isBeyondDoublePrecision } from './bson-numbers';
import { pathValuesOf } from './bson-type';

/**
 * mingo matches on plain JS numbers, which cannot tell int64 values beyond 2^53 apart
 * (Long('9007199254740993') would equal 9007199254740992), and does not order BinData as mongod
 * does (by length, then subtype, then bytes). A comparison whose operand is such a value is
 * therefore served by these operators instead, which read the raw, typed document and compare
 * in BSON order. The operand travels wrapped so the plain view leaves it untouched.
 */
class ExactOperand {
  constructor(readonly value: unknown) {}
}

const RENAMED: Record<string, string> = {
  $eq: '$exactEq',
  $ne: '$exactNe',
  $gt: '$exactGt',
  $gte: '$exactGte',
  $lt: '$exactLt',
  $lte: '$exactLte',
  $in: '$exactIn',
  $nin: '$exactNin',
};
const LOGICAL = new Set(['$and', '$or', '$nor']);
const MAX_DEPTH = 64;

/** Values whose comparisons the server makes itself (see above). */
export function needsServerComparison(value: unknown): boolean {
  return value instanceof Binary || isBeyondDoublePrecision(value);
}

/** Rewrites the filter's comparisons on values mingo cannot compare; `rewritten` says whether any was found. */
export function rewriteExactComparisons(filter: Document): { filter: Document; rewritten: boolean } {
  let rewritten = false;
  const rewriteCondition = (condition: unknown): unknown => {
    if (needsServerComparison(condition)) {
      rewritten = true;
      return { $exactEq: new ExactOperand(condition) };
    }
    if (condition === null || typeof condition !== 'object' || condition.constructor !== Object) return condition;
    const entries = Object.entries(condition as Document);
    if (entries.length === 0 || !entries.every(([key]) => key.startsWith('$'))) return condition;
    const out: Document = {};
    for (const [operator, operand] of entries) {
      if (operator in RENAMED && needsExactComparison(operator, operand)) {
        rewritten = true;
        out[RENAMED[operator]] = new ExactOperand(operand);
      } else out[operator] = operand;
    }
    return out;
  };
  const rewriteFilter = (value: Document, depth: number): Document => {
    if (depth > MAX_DEPTH) return value;
    const out: Document = {};
    for (const [key, item] of Object.entries(value)) {
      if (LOGICAL.has(key) && Array.isArray(item))
        out[key] = item.map((branch) => (isPlainObject(branch) ? rewriteFilter(branch, depth + 1) : branch));
      else if (key.startsWith('$')) out[key] = item;
      else out[key] = rewriteCondition(item);
    }
    return out;
  };
  const result = rewriteFilter(filter, 0);
  return { filter: rewritten ? result : filter, rewritten };
}

function needsExactComparison(operator: string, operand: unknown): boolean {
  if (operator === '$in' || operator === '$nin') {
    return (
      Array.isArray(operand) &&
      operand.some(needsServerComparison) &&
      !operand.some((item) => item instanceof RegExp || isPlainObject(item))
    );
  }
  return needsServerComparison(operand);
}

function isPlainObject(value: unknown): value is Document {
  return value !== null && typeof value === 'object' && value.constructor === Object;
}

type Predicate = (obj: unknown) => boolean;
type QueryOperator = (selector: string, operand: unknown) => Predicate;

/** Same BSON type class and equal value. */
function equals(a: unknown, b: unknown): boolean {
  return typeRank(a) === typeRank(b) && compareBson(a, b) === 0;
}

function comparing(test: (order: number) => boolean): QueryOperator {
  return (selector, operand) => {
    const target = (operand as ExactOperand).value;
    return (obj) =>
      pathValuesOf(obj, selector).some(
        (value) => typeRank(value) === typeRank(target) && test(compareBson(value, target)),
      );
  };
}

function membership(selector: string, operand: unknown): Predicate {
  const list = (operand as ExactOperand).value as unknown[];
  const matchesMissing = list.some((item) => item === null);
  return (obj) => {
    const values = pathValuesOf(obj, selector);
    if (values.length === 0) return matchesMissing;
    return values.some((value) => list.some((item) => equals(value, item)));
  };
}

const exactEq = comparing((order) => order === 0);
const exactIn: QueryOperator = membership;

export const EXACT_QUERY_OPERATORS: Record<string, QueryOperator> = {
  $exactEq: exactEq,
  $exactNe: (selector, operand) => {
    const eq = exactEq(selector, operand);
    return (obj) => !eq(obj);
  },
  $exactGt: comparing((order) => order > 0),
  $exactGte: comparing((order) => order >= 0),
  $exactLt: comparing((order) => order < 0),
  $exactLte: comparing((order) => order <= 0),
  $exactIn: exactIn,
  $exactNin: (selector, operand) => {
    const inList = exactIn(selector, operand);
    return (obj) => !inList(obj);
  },
};
