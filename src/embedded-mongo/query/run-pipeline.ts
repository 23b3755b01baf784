import type { Document } from 'bson';
import { Aggregator, ProcessingMode } from 'mingo';
import { CommandError } from '../base/command-error';
import { geoNearStage } from '../geo/geo-near-stage';
import { nearField } from '../geo/near-query';
import type { Catalog } from '../storage/catalog';
import { cloneDocument } from '../storage/clone-document';
import { desugarBuckets } from './bucket-stage';
import type { Collation } from './collation';
import { collateGroups } from './collation-group';
import { countingGroup } from './count-group';
import { countMatches, findStream, type FindSpec } from './find-documents';
import { idFirst } from './id-first';
import { matchView } from './match-view';
import { mingoOptions } from './mingo-options';
import { withOrderedProjects } from './ordered-project';
import { foldPipelineHead } from './pipeline-head';
import type { ReadSource } from './read-source';
import { documentsOf, drain, streamFrom, streamOf, type ResultStream } from './result-stream';
import { rewriteTextScoreStages, withoutScore, withScore } from './text-score-stages';
import { typedPipeline } from './typed-pipeline';
import { typedResult } from './typed-stages';
import { writePipelineOutput } from './write-pipeline-output';

export interface PipelineRun {
  readonly catalog: Catalog;
  readonly db: string;
  /** undefined for database-level `aggregate: 1` (e.g. a `$documents` pipeline). */
  readonly collection?: string;
  readonly pipeline: unknown;
  readonly collation?: Collation;
  readonly variables?: Document;
  /** Source of `$listLocalSessions`, the one database-level stage served from server state. */
  readonly sessions?: () => Document[];
  readonly viewDepth?: number;
  /** Index hint for the leading `$match`. */
  readonly hint?: unknown;
}

/** Stages that mingo applies by mutating their input in place. */
const MUTATING_STAGES = new Set(['$addFields', '$set', '$unset']);

/**
 * Runs an aggregation. The leading `$match $sort $skip $limit` (and a final simple `$project`) run
 * as one find through the server's own matcher and indexes (`_id` lookups, collation, index order,
 * early stop); a counting `$group` right after them is answered from the number of matches; the
 * rest runs in mingo with other collections resolved from the catalog.
 * `$out` / `$merge` are written by the server so that unique indexes stay enforced.
 */
export function runPipeline(run: PipelineRun): Document[] {
  return drain(streamPipeline(run));
}

/**
 * The same, read lazily: the head's find and mingo's streaming stages pull documents as the
 * cursor's batches are taken; only stages that need their whole input (`$group`, `$sort`, ...)
 * and `$out` / `$merge` gather it.
 */
export function streamPipeline(run: PipelineRun): ResultStream {
  const stages = validatePipeline(run.pipeline);
  const last = stages[stages.length - 1];
  const output = last && ('$out' in last || '$merge' in last) ? last : undefined;
  let rest = output ? stages.slice(0, -1) : stages;
  let source: ResultStream = streamOf([]);
  let scores: ReadonlyMap<Document, number> | undefined;
  if (run.collection !== undefined) {
    const store = readSource(run.catalog, run.db, run.collection, run.viewDepth);
    const head = foldPipelineHead(rest, run.hint !== undefined);
    if (head.length > 0) {
      rest = rest.slice(head.length);
      const textScores = new Map<Document, number>();
      const { filter, sort, skip, limit, projection } = head;
      const spec: FindSpec = {
        filter,
        sort,
        skip,
        limit,
        projection,
        collation: run.collation,
        variables: run.variables,
        hint: run.hint,
        textScores,
      };
      const counting = rest.length === 1 && !head.projection ? countingGroup(rest[0]) : undefined;
      if (counting) {
        source = streamOf(counting(countMatches(store, spec)));
        rest = [];
      } else {
        source = findStream(store, spec);
        if (textScores.size > 0 && rest.length > 0) {
          scores = textScores;
          rest = rewriteTextScoreStages(rest);
        }
      }
    } else if (rest[0] && '$geoNear' in rest[0]) {
      source = streamOf(geoNearStage(store, rest[0].$geoNear, run));
      rest = rest.slice(1);
    } else if (store) {
      source = streamFrom(store.documents()[Symbol.iterator]());
    }
  } else if (rest.length > 0 && '$listLocalSessions' in rest[0]) {
    source = streamOf(run.sessions?.() ?? []);
    rest = rest.slice(1);
  }
  const results = rest.length > 0 ? streamInMingo(run, rest, source, scores) : source;
  if (!output) return results;
  writePipelineOutput(run.catalog, run.db, output, drain(results), run.variables);
  return streamOf([]);
}

/** The stages the server does not answer itself; mingo is only set up when some are left. */
function streamInMingo(
  run: PipelineRun,
  stages: Document[],
  source: ResultStream,
  scores?: ReadonlyMap<Document, number>,
): ResultStream {
  const rest = withOrderedProjects(typedPipeline(collateGroups(desugarBuckets(stages), run.collation)).stages);
  const mutates = rest.some((stage) => containsMutatingStage(stage));
  // mingo sees plain views (numeric wrappers unwrapped); documents that pass through unchanged go back raw.
  const resolve = (name: string): Document[] => {
    const docs = [...(run.catalog.getCollection(run.db, name)?.documents() ?? [])].map((doc) => matchView(doc));
    return mutates ? docs.map(cloneDocument) : docs;
  };
  const options = {
    ...mingoOptions({ collation: run.collation, variables: run.variables, collectionResolver: resolve }, rest),
    ...(mutates ? { processingMode: ProcessingMode.CLONE_INPUT } : {}),
  };
  const input = (function* () {
    for (const doc of documentsOf(source)) yield matchView(scores ? withScore(doc, scores) : doc);
  })();
  const output = new Aggregator(matchView(rest), options).stream(input) as Iterator<Document>;
  return streamFrom(output, (docs) => docs.map((doc) => withoutScore(idFirst(typedResult(doc)))));
}

function validatePipeline(pipeline: unknown): Document[] {
  if (!Array.isArray(pipeline))
    throw new CommandError('TypeMismatch', "'pipeline' option must be specified as an array");
  pipeline.forEach((stage, position) => {
    if (stage === null || typeof stage !== 'object' || Array.isArray(stage) || Object.keys(stage).length !== 1) {
      throw new CommandError('BadValue', 'A pipeline stage specification object must contain exactly one field.');
    }
    const name = Object.keys(stage)[0];
    if (name === '$geoNear' && position > 0)
      throw new CommandError('Location40602', '$geoNear is only valid as the first stage in a pipeline.');
    if (name === '$match' && isGeoNearMatch((stage as Document).$match)) {
      throw new CommandError('BadValue', '$geoNear, $near, and $nearSphere are not allowed in this context');
    }
    if ((name === '$out' || name === '$merge') && position !== pipeline.length - 1) {
      throw new CommandError('BadValue', `${name} can only be the final stage in the pipeline`);
    }
  });
  return pipeline as Document[];
}

/** A `$match` whose top-level condition is `$near` (the find path would otherwise order by it). */
function isGeoNearMatch(filter: unknown): boolean {
  return (
    filter !== null &&
    typeof filter === 'object' &&
    !Array.isArray(filter) &&
    nearField(filter as Document) !== undefined
  );
}

function containsMutatingStage(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(containsMutatingStage);
  if (value === null || typeof value !== 'object' || value.constructor !== Object) return false;
  return Object.entries(value).some(([key, inner]) => MUTATING_STAGES.has(key) || containsMutatingStage(inner));
}

/** Views on views are resolved recursively; mongod caps the depth at 20 as well. */
const MAX_VIEW_DEPTH = 20;

/** The namespace as something to read: views (`create` with `viewOn`) run their pipeline first. */
export function readSource(catalog: Catalog, db: string, name: string, depth = 0): ReadSource | undefined {
  const store = catalog.getCollection(db, name);
  const viewOn = store?.options.viewOn;
  if (!store || typeof viewOn !== 'string') return store;
  if (depth >= MAX_VIEW_DEPTH)
    throw new CommandError('BadValue', `view depth too deep or view cycle detected at ${db}.${name}`);
  const docs = runPipeline({
    catalog,
    db,
    collection: viewOn,
    pipeline: store.options.pipeline ?? [],
    viewDepth: depth + 1,
  });
  return { size: docs.length, documents: () => docs };
}
