import type { Document } from 'bson';
import { CommandError } from '../base/command-error';
import { typeRank } from '../query/bson-compare';
import { sameCollation, type Collation } from '../query/collation';
import { isIdKey, sameKey } from '../storage/index-spec';
import { TypeEdge, type FieldInterval } from './key-bounds';
import type { OrderedIndex } from './ordered-index';
import { filterBounds, type FieldBounds } from './query-bounds';
import { fullScan, intervalTuples, type IndexPlan } from './query-plan';

export interface PlanRequest {
  readonly filter: Document;
  readonly sort?: ReadonlyArray<readonly [string, number]>;
  readonly collation?: Collation;
  readonly hint?: unknown;
}

/** The outcome of planning over secondary indexes: an index plan, or a scan (`natural` when hinted). */
export type IndexChoice = { readonly plan?: IndexPlan; readonly natural: boolean; readonly idHinted: boolean };

interface Candidate {
  readonly plan: IndexPlan;
  readonly score: number;
}

/**
 * Picks the secondary index that bounds the most leading fields (equality before range), preferring
 * one that also yields the requested sort, as mongod's planner would usually end up doing.
 * Without bounds, an index whose order is the sort order still saves the sort.
 */
export function chooseIndex(indexes: readonly OrderedIndex[], request: PlanRequest): IndexChoice {
  const hinted = resolveHint(indexes, request.hint);
  if (hinted === 'natural' || hinted === 'id') return { natural: hinted === 'natural', idHinted: hinted === 'id' };
  const bounds = filterBounds(request.filter);
  let best: Candidate | undefined;
  for (const index of hinted ? [hinted] : indexes) {
    const candidate = evaluate(index, bounds, request, hinted !== undefined);
    if (candidate && (!best || candidate.score > best.score)) best = candidate;
  }
  return { plan: best?.plan, natural: false, idHinted: false };
}

function evaluate(
  index: OrderedIndex,
  bounds: Map<string, FieldBounds>,
  request: PlanRequest,
  hinted: boolean,
): Candidate | undefined {
  const compatible = sameCollation(index.collation, request.collation);
  const perField: FieldInterval[][] = [];
  const used: FieldBounds[] = [];
  for (const field of index.fields) {
    const found = bounds.get(field);
    if (!found || (found.usesStrings && !compatible)) break;
    // A sparse index has no entry for missing fields, which a null point would have to find.
    if (
      index.spec.sparse &&
      found.intervals.some((interval) => interval.low instanceof TypeEdge && interval.low.rank === 2)
    )
      break;
    perField.push(
      found.points || !(index.multikey && found.twoSided) ? found.intervals : found.intervals.map(lowerSideOnly),
    );
    used.push(found);
    if (!found.points) break;
  }
  let tuples = intervalTuples(perField);
  while (!tuples && perField.length > 1) {
    perField.pop();
    used.pop();
    tuples = intervalTuples(perField);
  }
  const sortDirection = sortDirectionOf(index, request, perField, compatible);
  if (perField.length === 0) {
    // No bounds: only worth it to save a sort (or because the user asked for it).
    if (hinted) return { plan: fullScan(index, sortDirection === -1, sortDirection !== undefined), score: 0 };
    if (sortDirection === undefined || !index.complete) return undefined;
    return { plan: fullScan(index, sortDirection === -1, true), score: 0.5 };
  }
  if (!index.complete && !hinted && index.spec.partialFilterExpression) return undefined;
  const filterFields = Object.keys(request.filter);
  const usedFields = index.fields.slice(0, used.length);
  const exact =
    used.every((found) => found.exact) &&
    filterFields.length === used.length &&
    filterFields.every((field) => usedFields.includes(field));
  const equalities = used.filter((found) => found.points).length;
  const score =
    equalities * 4 +
    (used.length > equalities ? 2 : 0) +
    (sortDirection !== undefined ? 1 : 0) +
    (index.spec.unique ? 0.5 : 0);
  const plan: IndexPlan = {
    stage: 'IXSCAN',
    index,
    tuples: tuples!,
    reverse: sortDirection === -1,
    exact,
    sorted: sortDirection !== undefined,
  };
  return { plan, score };
}

/** On a multikey index `{ $gt: 1, $lt: 5 }` may be met by two different elements: keep one side. */
function lowerSideOnly(interval: FieldInterval): FieldInterval {
  return { ...interval, high: new TypeEdge(typeRank(interval.low), 'end'), highInclusive: true };
}

/**
 * 1 or -1 when walking the index (forward or backward) yields the requested sort: the sort keys
 * are the index fields after the equality prefix (or from the start), in uniform relative direction.
 */
function sortDirectionOf(
  index: OrderedIndex,
  request: PlanRequest,
  perField: FieldInterval[][],
  compatible: boolean,
): 1 | -1 | undefined {
  const sort = request.sort;
  if (!sort || sort.length === 0 || index.multikey || !compatible) return undefined;
  if (perField.some((intervals) => intervals.length !== 1)) return undefined;
  let equalityPrefix = 0;
  while (equalityPrefix < perField.length && isPoint(perField[equalityPrefix][0])) equalityPrefix++;
  for (const start of new Set([0, equalityPrefix])) {
    if (start + sort.length > index.fields.length) continue;
    const relative = sort.map(([field, direction], j) =>
      index.fields[start + j] === field ? Math.sign(direction) * index.directions[start + j] : 0,
    );
    if (relative.every((value) => value === 1)) return 1;
    if (relative.every((value) => value === -1)) return -1;
  }
  return undefined;
}

function isPoint(interval: FieldInterval): boolean {
  return !(interval.low instanceof TypeEdge) && interval.low === interval.high;
}

/** `hint` by name or key pattern; `$natural` forces a collection scan. */
function resolveHint(indexes: readonly OrderedIndex[], hint: unknown): OrderedIndex | 'natural' | 'id' | undefined {
  if (hint === undefined || hint === null || hint === '') return undefined;
  if (typeof hint === 'object' && !Array.isArray(hint)) {
    const pattern = hint as Document;
    if (Object.keys(pattern).length === 0) return undefined;
    if ('$natural' in pattern) return 'natural';
    if (isIdKey(pattern)) return 'id';
    const found = indexes.find((index) => sameKey(index.spec.key, pattern));
    if (found) return found;
    throw badHint();
  }
  if (typeof hint === 'string') {
    if (hint === '_id_') return 'id';
    const found = indexes.find((index) => index.name === hint);
    if (found) return found;
  }
  throw badHint();
}

function badHint(): CommandError {
  return new CommandError('BadValue', 'hint provided does not correspond to an existing index');
}
