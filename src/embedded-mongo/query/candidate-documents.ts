import { ObjectId, type Document } from 'bson';
import { chooseIndex } from '../indexes/choose-plan';
import type { ScanStats } from '../indexes/ordered-index';
import type { IndexPlan, QueryPlan } from '../indexes/query-plan';
import { foldsStrings, type Collation } from './collation';
import type { ReadSource } from './read-source';

export interface Candidates {
  readonly docs: Iterable<Document>;
  /** True when the candidates are exactly the matches (an `_id` or index lookup answers the filter). */
  readonly exact: boolean;
  /** True when the candidates already come in the requested sort order. */
  readonly sorted: boolean;
  readonly plan: QueryPlan;
}

export interface CandidateOptions {
  readonly collation?: Collation;
  readonly sort?: ReadonlyArray<readonly [string, number]>;
  readonly hint?: unknown;
}

/**
 * The documents a filter can possibly match. An `_id` equality or `$in` is answered from the
 * `_id` map, bounds on indexed fields from an ordered index; everything else is a scan.
 */
export function candidateDocuments(
  store: ReadSource,
  filter: Document,
  options: CandidateOptions = {},
  stats: ScanStats = { keysExamined: 0 },
): Candidates {
  const indexes = store.secondary?.orderedIndexes() ?? [];
  const choice =
    indexes.length > 0 || options.hint !== undefined
      ? chooseIndex(indexes, { filter, ...options })
      : { natural: false, idHinted: false };
  const ids =
    store.getById && !choice.natural && (options.hint === undefined || choice.idHinted)
      ? idsFromFilter(filter._id, foldsStrings(options.collation))
      : undefined;
  if (ids && store.getById) {
    const found: Document[] = [];
    const seen = new Set<Document>();
    for (const id of ids) {
      stats.keysExamined++;
      const doc = store.getById(id);
      if (doc && !seen.has(doc)) {
        seen.add(doc);
        found.push(doc);
      }
    }
    return {
      docs: found,
      exact: Object.keys(filter).length === 1,
      sorted: found.length <= 1,
      plan: { stage: 'IDHACK' },
    };
  }
  if (choice.plan)
    return {
      docs: indexDocuments(choice.plan, stats),
      exact: choice.plan.exact,
      sorted: choice.plan.sorted,
      plan: choice.plan,
    };
  return { docs: store.documents(), exact: false, sorted: false, plan: { stage: 'COLLSCAN' } };
}

/** Walks the plan's intervals; a document reached through several keys is returned once. */
function* indexDocuments(plan: IndexPlan, stats: ScanStats): Generator<Document> {
  const seen = plan.tuples.length > 1 || plan.index.multikey ? new Set<Document>() : undefined;
  for (const tuple of plan.tuples) {
    for (const entry of plan.index.scan(tuple, plan.reverse, stats)) {
      if (seen) {
        if (seen.has(entry.doc)) continue;
        seen.add(entry.doc);
      }
      yield entry.doc;
    }
  }
}

function idsFromFilter(condition: unknown, stringsFold: boolean): unknown[] | undefined {
  if (condition === undefined) return undefined;
  if (isExactValue(condition, stringsFold)) return [condition];
  if (condition === null || typeof condition !== 'object' || condition.constructor !== Object) return undefined;
  const operators = Object.keys(condition);
  if (operators.length !== 1) return undefined;
  const operand = (condition as Document)[operators[0]];
  if (operators[0] === '$eq' && isExactValue(operand, stringsFold)) return [operand];
  if (operators[0] === '$in' && Array.isArray(operand) && operand.every((value) => isExactValue(value, stringsFold)))
    return operand;
  return undefined;
}

/** Values whose equality is plain key equality: no operators, regexes, arrays, nulls or folded strings. */
function isExactValue(value: unknown, stringsFold: boolean): boolean {
  switch (typeof value) {
    case 'number':
    case 'boolean':
      return true;
    case 'string':
      return !stringsFold;
    case 'object':
      return value instanceof ObjectId || value instanceof Date;
    default:
      return false;
  }
}
