import type { Document } from 'bson';
import { Lazy } from 'mingo/lazy';
import { cloneDocument } from '../storage/clone-document';
import { isBeyondDoublePrecision, isBsonNumber } from './bson-numbers';
import { matchView, RAW_SOURCE, rawOf, rawSourceOf } from './match-view';
import { ORDERED_PROJECT } from './ordered-project';
import { sortDocuments } from './sort-documents';
import { unwrapLiteral } from './typed-literal';
import { sameNumber, type EvaluationOptions } from './typed-operands';

/** The top-level fields a stage computed (not copied), which keep whatever type they were given. */
const COMPUTED = Symbol('computed fields');

type LazyIterator = {
  map: (f: (doc: unknown) => unknown) => LazyIterator;
  filter: (f: (doc: unknown) => boolean) => LazyIterator;
  transform: (f: (docs: unknown[]) => LazyIterator) => LazyIterator;
};
type PipelineOperator = (collection: LazyIterator, expr: unknown, options: unknown) => LazyIterator;

/**
 * mingo's `$project`, `$addFields` and `$set` build new documents from plain views, so a copied
 * int64 or decimal field would come out as an int32 or a double. These run mingo's stage and tie
 * each output to the typed document it came from, naming the fields the stage computed; the copied
 * ones get their typed values back (see `typedResult`).
 */
function tracing(name: string, computedFields: (spec: unknown) => Set<string>): PipelineOperator {
  return (collection, expr, options) => {
    const native = (options as EvaluationOptions).context.getOperator(
      'pipeline' as never,
      name,
    ) as unknown as PipelineOperator;
    const computed = computedFields(expr);
    const inputs: unknown[] = [];
    const tapped = collection.map((doc) => {
      inputs.push(doc);
      return doc;
    });
    return native(tapped, expr, options).map((out) => {
      const input = inputs.shift();
      if (out !== null && typeof out === 'object' && out !== input) {
        (out as Record<symbol, unknown>)[RAW_SOURCE] = rawSourceOf(input);
        (out as Record<symbol, unknown>)[COMPUTED] = computed;
      }
      return out;
    });
  };
}

/**
 * `$unwind` on a top-level field: each output's source is its input's source with the field
 * holding the matching element, so an unwound int64 or decimal keeps its type.
 */
const unwind: PipelineOperator = (collection, expr, options) => {
  const native = (options as EvaluationOptions).context.getOperator(
    'pipeline' as never,
    '$unwind',
  ) as unknown as PipelineOperator;
  const path = typeof expr === 'string' ? expr : ((expr as Document | null)?.path as string | undefined);
  const field = typeof path === 'string' && path.startsWith('$') && !path.includes('.') ? path.slice(1) : undefined;
  // mingo writes into the input document itself for an empty array kept by
  // preserveNullAndEmptyArrays and for includeArrayIndex; views are cached and shared, so it gets a copy.
  const mutates =
    typeof expr === 'object' &&
    expr !== null &&
    ((expr as Document).preserveNullAndEmptyArrays === true ||
      typeof (expr as Document).includeArrayIndex === 'string');
  let current: unknown;
  let position = 0;
  const tapped = collection.map((doc) => {
    current = doc;
    position = 0;
    return mutates ? cloneDocument(doc) : doc;
  });
  return native(tapped, expr, options).map((out) => {
    const source = rawSourceOf(current);
    const elements = field && source !== null && typeof source === 'object' ? (source as Document)[field] : undefined;
    if (out !== null && typeof out === 'object' && out !== current) {
      (out as Record<symbol, unknown>)[RAW_SOURCE] =
        field && Array.isArray(elements) ? { ...(source as Document), [field]: elements[position] } : source;
    }
    position++;
    return out;
  });
};

/**
 * `$sort` after computed stages: mingo orders plain numbers, which cannot tell int64 values beyond
 * 2^53 apart; this sorts by the typed values in BSON order (mingo's own sort when a collation or
 * `$meta` is involved).
 */
const sort: PipelineOperator = (collection, expr, options) => {
  const spec = expr as Document;
  const simple =
    spec !== null &&
    typeof spec === 'object' &&
    Object.values(spec).every((direction) => direction === 1 || direction === -1);
  if (!simple || (options as { collation?: unknown }).collation) {
    const native = (options as EvaluationOptions).context.getOperator(
      'pipeline' as never,
      '$sort',
    ) as unknown as PipelineOperator;
    return native(collection, expr, options);
  }
  const order = Object.entries(spec) as Array<[string, 1 | -1]>;
  return collection.transform((docs: unknown[]) => {
    const typed = docs.map((doc) => typedResult(doc as Document));
    const positions = new Map(typed.map((doc, i) => [doc, i]));
    return Lazy(sortDocuments(typed, order).map((doc) => docs[positions.get(doc)!])) as unknown as LazyIterator;
  });
};

/** `$match` after other stages: matched on the typed values when the server's matcher is needed. */
const match: PipelineOperator = (collection, wrapped, options) => {
  // The filter arrives as written (see typed-pipeline.ts): the plain view would round its numbers.
  const filter = unwrapLiteral(wrapped);
  if ('$expr' in (filter as Document) || !needsServerMatcher(filter, 0)) {
    const native = (options as EvaluationOptions).context.getOperator(
      'pipeline' as never,
      '$match',
    ) as unknown as PipelineOperator;
    return native(collection, matchView(filter), options);
  }
  const predicate = compileStageFilter(filter);
  return collection.filter((doc) => predicate(typedResult(doc as Document)));
};

/**
 * The server's filter compiler (match.ts), handed over by that module when it loads: match.ts
 * reaches this module through the mingo context, so importing it here would be a cycle.
 */
let compileStageFilter: (filter: unknown) => (doc: Document) => boolean = () => {
  throw new Error('the filter compiler is not loaded');
};

export function useStageFilterCompiler(compile: (filter: unknown) => (doc: Document) => boolean): void {
  compileStageFilter = compile;
}

const SERVER_MATCHED = new Set(['$type', '$geoWithin', '$geoIntersects']);

/** A filter only the server's matcher gets right: an int64 beyond 2^53, `$type` by BSON width, a geo predicate. */
function needsServerMatcher(value: unknown, depth: number): boolean {
  if (isBeyondDoublePrecision(value)) return true;
  if (depth > 64 || value === null || typeof value !== 'object') return false;
  if (!Array.isArray(value) && value.constructor !== Object) return false;
  return Object.entries(value).some(
    ([key, item]) => (SERVER_MATCHED.has(key) && !Array.isArray(value)) || needsServerMatcher(item, depth + 1),
  );
}

const topLevel = (path: string) => path.split('.')[0];
const isInclusionFlag = (value: unknown) => value === 0 || value === 1 || value === true || value === false;

export const TYPED_STAGES: Record<string, PipelineOperator> = {
  // The server's `$project` (stored field order), traced like the others.
  $bsonProject: tracing(
    ORDERED_PROJECT,
    (spec) =>
      new Set(
        Object.entries(spec as Document)
          .filter(([, value]) => !isInclusionFlag(value))
          .map(([key]) => topLevel(key)),
      ),
  ),
  $bsonAddFields: tracing('$addFields', (spec) => new Set(Object.keys(spec as Document).map(topLevel))),
  $bsonSet: tracing('$set', (spec) => new Set(Object.keys(spec as Document).map(topLevel))),
  $bsonUnwind: unwind,
  $bsonSort: sort,
  $bsonMatch: match,
};

export const TRACED_STAGE_NAMES: Record<string, string> = {
  $project: '$bsonProject',
  $addFields: '$bsonAddFields',
  $set: '$bsonSet',
  $unwind: '$bsonUnwind',
  $sort: '$bsonSort',
  $match: '$bsonMatch',
};

/**
 * A result document with its stored types: a view mingo passed through becomes its raw document
 * again, and a number a stage copied (not computed) gets back the typed value it was copied from.
 * The bookkeeping symbols are dropped, so results never keep earlier documents alive.
 */
export function typedResult(doc: Document): Document {
  return restore(doc, undefined) as Document;
}

function restore(value: unknown, source: unknown): unknown {
  if (typeof value === 'number')
    return isBsonNumber(source) && typeof source === 'object' && sameNumber(source, value) ? source : value;
  if (value === null || typeof value !== 'object') return value;
  const raw = rawOf(value);
  if (raw !== value) return raw;
  if (Array.isArray(value)) {
    const sources = Array.isArray(source) && source.length === value.length ? source : undefined;
    let copy: unknown[] | undefined;
    value.forEach((item, i) => {
      const next = restore(item, sources?.[i]);
      if (next !== item) (copy ??= value.slice())[i] = next;
    });
    return copy ?? value;
  }
  if (value.constructor !== Object) return value;
  const marks = value as Record<symbol, unknown>;
  const own = marks[RAW_SOURCE];
  const origin = own ?? source;
  const fields =
    origin !== null && typeof origin === 'object' && !Array.isArray(origin) ? (origin as Document) : undefined;
  const computed = own ? (marks[COMPUTED] as Set<string> | undefined) : undefined;
  const marked = Object.getOwnPropertySymbols(value).length > 0;
  let copy: Document | undefined = marked ? {} : undefined;
  for (const key of Object.keys(value)) {
    const item = (value as Document)[key];
    const next = restore(item, computed?.has(key) ? undefined : fields?.[key]);
    if (copy) copy[key] = next;
    else if (next !== item) (copy = { ...(value as Document) })[key] = next;
  }
  return copy ?? value;
}
