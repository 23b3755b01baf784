import type { Document } from 'bson';
import { nearCandidates, nearField } from '../geo/near-query';
import type { QueryPlan } from '../indexes/query-plan';
import { candidateDocuments, type Candidates } from './candidate-documents';
import type { Collation } from './collation';
import { asFilter, compileFilter } from './match';
import { projectDocuments } from './projection';
import type { ReadSource } from './read-source';
import { sortDocuments } from './sort-documents';
import { textSearch } from './text-search';

export interface FindSpec {
  readonly filter?: unknown;
  readonly sort?: Array<[string, 1 | -1]>;
  readonly skip?: number;
  /** 0 or undefined: no limit. */
  readonly limit?: number;
  readonly projection?: unknown;
  readonly collation?: Collation;
  readonly variables?: Document;
  readonly hint?: unknown;
  /** Filled in for explain: the plan and what executing it cost. */
  readonly stats?: ExecutionStats;
  /** Filled in with `$text` scores, for stages that read `{ $meta: 'textScore' }` later. */
  readonly textScores?: Map<Document, number>;
}

export interface ExecutionStats {
  plan?: QueryPlan;
  keysExamined: number;
  docsExamined: number;
  nReturned: number;
}

/**
 * Runs a query against one collection: candidates (via `_id`, an index, a text search or `$near`),
 * predicate, sort (skipped when the index walk is already in order), skip, limit, projection.
 * Without a sort to perform it stops as soon as skip + limit documents matched.
 */
export function findDocuments(store: ReadSource | undefined, spec: FindSpec): Document[] {
  if (!store) return [];
  const stats = spec.stats ?? { keysExamined: 0, docsExamined: 0, nReturned: 0 };
  let filter = asFilter(spec.filter);
  const settings = { collation: spec.collation, variables: spec.variables };
  let candidates: Candidates;
  let scores: Map<Document, number> | undefined;
  if ('$text' in filter) {
    const { $text: text, ...rest } = filter;
    const found = textSearch(store, text);
    scores = found.scores;
    for (const [doc, score] of found.scores) spec.textScores?.set(doc, score);
    candidates = { docs: found.docs, exact: Object.keys(rest).length === 0, sorted: false, plan: { stage: 'TEXT', indexName: found.indexName } };
    filter = rest;
  } else if (nearField(filter) !== undefined) {
    const near = nearCandidates(store, filter, nearField(filter)!);
    candidates = { docs: near.docs, exact: Object.keys(near.rest).length === 0, sorted: false, plan: near.plan };
    filter = near.rest;
  } else {
    candidates = candidateDocuments(store, filter, { collation: spec.collation, sort: spec.sort, hint: spec.hint }, stats);
  }
  stats.plan = candidates.plan;
  // An exact lookup needs no predicate: compiling one costs more than the lookup itself.
  const matches = candidates.exact ? undefined : compileFilter(filter, settings);
  const skip = spec.skip ?? 0;
  const limit = spec.limit && spec.limit > 0 ? spec.limit : Infinity;
  const needsSort = spec.sort !== undefined && !candidates.sorted;
  const stopAfter = needsSort ? Infinity : skip + limit;
  let selected: Document[] = [];
  for (const doc of candidates.docs) {
    if (selected.length >= stopAfter) break;
    stats.docsExamined++;
    if (!matches || matches(doc)) selected.push(doc);
  }
  if (needsSort) selected = sortDocuments(selected, spec.sort!, spec.collation, scores);
  if (skip > 0 || limit !== Infinity) selected = selected.slice(skip, skip + limit);
  stats.nReturned = selected.length;
  return projectDocuments(selected, spec.projection, filter, settings, scores);
}
