import type { Document } from 'bson';
import { nearCandidates, nearField } from '../geo/near-query';
import type { QueryPlan } from '../indexes/query-plan';
import { candidateDocuments, type Candidates } from './candidate-documents';
import type { Collation } from './collation';
import { asFilter, compileFilter, type DocumentPredicate } from './match';
import type { EvaluationSettings } from './mingo-options';
import { compileProjection } from './projection';
import type { ReadSource } from './read-source';
import { drain, streamFrom, streamOf, type ResultStream } from './result-stream';
import { sortDocuments, topSorted } from './sort-documents';
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
 * Everything that can fail is checked here; the documents are then read lazily as the stream is
 * taken from, so a cursor walks the index or the collection batch by batch. Only a sort the
 * candidates do not already satisfy gathers the matches (just the top skip + limit of them when
 * there is a limit).
 */
export function findStream(store: ReadSource | undefined, spec: FindSpec): ResultStream {
  if (!store) {
    assertValidFilter(spec);
    return streamOf([]);
  }
  const query = planFind(store, spec);
  const project = compileProjection(spec.projection, query.filter, query.settings, query.scores);
  project?.([]); // a malformed projection is refused now, not at the first getMore
  return streamFrom(query.walk, project);
}

/** The whole result at once, for commands that need all of it (writes, distinct, explain, views). */
export function findDocuments(store: ReadSource | undefined, spec: FindSpec): Document[] {
  return drain(findStream(store, spec));
}

/** How many documents the query returns, without keeping any of them. */
export function countMatches(store: ReadSource | undefined, spec: FindSpec): number {
  if (!store) {
    assertValidFilter(spec);
    return 0;
  }
  const { walk } = planFind(store, spec);
  let n = 0;
  while (!walk.next().done) n++;
  return n;
}

/** A missing collection answers nothing, but mongod validates the filter first and refuses a bad one all the same. */
function assertValidFilter(spec: FindSpec): void {
  const filter = asFilter(spec.filter);
  if (nearField(filter) === undefined) compileFilter(filter, { collation: spec.collation, variables: spec.variables });
}

interface PlannedFind {
  readonly walk: Iterator<Document>;
  /** The filter left for the predicate (without `$text`). */
  readonly filter: Document;
  readonly settings: EvaluationSettings;
  readonly scores?: Map<Document, number>;
}

function planFind(store: ReadSource, spec: FindSpec): PlannedFind {
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
    candidates = {
      docs: found.docs,
      exact: Object.keys(rest).length === 0,
      sorted: false,
      plan: { stage: 'TEXT', indexName: found.indexName },
    };
    filter = rest;
  } else if (nearField(filter) !== undefined) {
    const near = nearCandidates(store, filter, nearField(filter)!);
    candidates = { docs: near.docs, exact: Object.keys(near.rest).length === 0, sorted: false, plan: near.plan };
    filter = near.rest;
  } else {
    candidates = candidateDocuments(
      store,
      filter,
      { collation: spec.collation, sort: spec.sort, hint: spec.hint },
      stats,
    );
  }
  stats.plan = candidates.plan;
  // An exact lookup needs no predicate: compiling one costs more than the lookup itself.
  const matches = candidates.exact ? undefined : compileFilter(filter, settings);
  const skip = spec.skip ?? 0;
  const limit = spec.limit && spec.limit > 0 ? spec.limit : Infinity;
  const matching = matchingDocuments(candidates.docs, matches, stats);
  const sort = spec.sort !== undefined && !candidates.sorted ? spec.sort : undefined;
  const ordered = sort ? sortedMatches(matching, skip + limit, sort, spec.collation, scores) : matching;
  return { walk: page(ordered, skip, limit, stats), filter, settings, scores };
}

function* matchingDocuments(
  candidates: Iterable<Document>,
  matches: DocumentPredicate | undefined,
  stats: ExecutionStats,
): Generator<Document> {
  for (const doc of candidates) {
    stats.docsExamined++;
    if (!matches || matches(doc)) yield doc;
  }
}

/** A sort the candidates do not satisfy: it needs every match (or the top `count` of them). */
function* sortedMatches(
  matching: Iterable<Document>,
  count: number,
  sort: Array<[string, 1 | -1]>,
  collation?: Collation,
  scores?: ReadonlyMap<Document, number>,
): Generator<Document> {
  yield* count === Infinity
    ? sortDocuments([...matching], sort, collation, scores)
    : topSorted(matching, count, sort, collation, scores);
}

/** Skip, then limit; returns right after the last document so no further candidate is examined. */
function* page(docs: Iterable<Document>, skip: number, limit: number, stats: ExecutionStats): Generator<Document> {
  if (limit <= 0) return;
  let skipped = 0;
  let returned = 0;
  for (const doc of docs) {
    if (skipped < skip) {
      skipped++;
      continue;
    }
    stats.nReturned++;
    yield doc;
    if (++returned >= limit) return;
  }
}
