import { compareBson, typeRank } from '../query/bson-compare';

/** The start or end of one BSON type class in index order (`$gt: 5` stops where numbers end). */
export class TypeEdge {
  constructor(
    readonly rank: number,
    readonly edge: 'start' | 'end',
  ) {}
}

/** Before or after every key. */
export const MIN_EDGE = new TypeEdge(-Infinity, 'start');
export const MAX_EDGE = new TypeEdge(Infinity, 'end');

export type BoundValue = unknown;

/** An interval of one field's values, in ascending BSON order (direction is applied by the index). */
export interface FieldInterval {
  readonly low: BoundValue;
  readonly lowInclusive: boolean;
  readonly high: BoundValue;
  readonly highInclusive: boolean;
}

export type StringComparator = (x: string, y: string) => number;

export const ALL_VALUES: FieldInterval = { low: MIN_EDGE, lowInclusive: true, high: MAX_EDGE, highInclusive: true };

export function pointInterval(value: unknown): FieldInterval {
  return { low: value, lowInclusive: true, high: value, highInclusive: true };
}

/** Every value of one type class (e.g. all nulls and missing fields, rank 2). */
export function typeInterval(rank: number): FieldInterval {
  return { low: new TypeEdge(rank, 'start'), lowInclusive: true, high: new TypeEdge(rank, 'end'), highInclusive: true };
}

/** Compares a key value with a bound that may be a type edge. */
export function compareToBound(value: unknown, bound: BoundValue, compareStrings?: StringComparator): number {
  if (bound instanceof TypeEdge) {
    const rank = typeRank(value);
    if (rank !== bound.rank) return rank < bound.rank ? -1 : 1;
    return bound.edge === 'start' ? 1 : -1;
  }
  return compareBson(value, bound, compareStrings);
}

export function inInterval(value: unknown, interval: FieldInterval, compareStrings?: StringComparator): boolean {
  const low = compareToBound(value, interval.low, compareStrings);
  if (low < 0 || (low === 0 && !interval.lowInclusive)) return false;
  const high = compareToBound(value, interval.high, compareStrings);
  return high < 0 || (high === 0 && interval.highInclusive);
}
