import type { Document } from 'bson';
import type { OrderedIndex } from './ordered-index';
import { ALL_VALUES, type FieldInterval } from './key-bounds';

/** How a query reads its candidates; `explain` reports it as the winning plan. */
export type QueryPlan =
  | { readonly stage: 'COLLSCAN' }
  | { readonly stage: 'IDHACK' }
  | { readonly stage: 'TEXT'; readonly indexName: string }
  | { readonly stage: 'GEO_NEAR_2D' | 'GEO_NEAR_2DSPHERE'; readonly indexName: string }
  | IndexPlan;

export interface IndexPlan {
  readonly stage: 'IXSCAN';
  readonly index: OrderedIndex;
  /** Interval tuples over the index's leading fields; several for `$in` points. */
  readonly tuples: FieldInterval[][];
  /** Walk the index backwards (a sort in the index's reverse order). */
  readonly reverse: boolean;
  /** The index answers the whole filter: no predicate needs to run on the candidates. */
  readonly exact: boolean;
  /** Candidates come out in the requested sort order. */
  readonly sorted: boolean;
}

/** Cap on `$in` combinations over a compound prefix; beyond it fewer fields are used. */
const MAX_TUPLES = 256;

/** The cartesian product of per-field intervals, or undefined when it would be too large. */
export function intervalTuples(perField: FieldInterval[][]): FieldInterval[][] | undefined {
  let tuples: FieldInterval[][] = [[]];
  for (const intervals of perField) {
    if (tuples.length * intervals.length > MAX_TUPLES) return undefined;
    tuples = tuples.flatMap((tuple) => intervals.map((interval) => [...tuple, interval]));
  }
  return tuples;
}

/** A full walk of the index (for a sort or a hint without usable bounds). */
export function fullScan(index: OrderedIndex, reverse: boolean, sorted: boolean): IndexPlan {
  return { stage: 'IXSCAN', index, tuples: [[ALL_VALUES]], reverse, exact: false, sorted };
}

/** The explain shape of a plan. */
export function describePlan(plan: QueryPlan, filter: Document): Document {
  if (plan.stage !== 'IXSCAN') {
    const base: Document =
      plan.stage === 'TEXT'
        ? { stage: 'TEXT_MATCH', indexName: plan.indexName }
        : 'indexName' in plan
          ? { stage: plan.stage, indexName: plan.indexName }
          : { stage: plan.stage };
    return plan.stage === 'COLLSCAN' ? { ...base, filter, direction: 'forward' } : base;
  }
  const index = plan.index;
  const ixscan = {
    stage: 'IXSCAN',
    keyPattern: index.spec.key,
    indexName: index.name,
    isMultiKey: index.multikey,
    isUnique: Boolean(index.spec.unique),
    isSparse: Boolean(index.spec.sparse),
    isPartial: Boolean(index.spec.partialFilterExpression),
    direction: plan.reverse ? 'backward' : 'forward',
    indexBounds: Object.fromEntries(
      index.fields.map((field, i) => [field, plan.tuples.map((tuple) => describeInterval(tuple[i] ?? ALL_VALUES))]),
    ),
  };
  return plan.exact ? { stage: 'FETCH', inputStage: ixscan } : { stage: 'FETCH', filter, inputStage: ixscan };
}

function describeInterval(interval: FieldInterval): string {
  const show = (value: unknown): string =>
    typeof value === 'object' && value !== null && 'edge' in value
      ? (value as { edge: string }).edge === 'start'
        ? 'MinKey'
        : 'MaxKey'
      : JSON.stringify(value);
  return (
    `${interval.lowInclusive ? '[' : '('}${show(interval.low)}, ${show(interval.high)}` +
    `${interval.highInclusive ? ']' : ')'}`
  );
}
