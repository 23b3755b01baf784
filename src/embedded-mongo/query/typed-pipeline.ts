import type { Document } from 'bson';
import { isBsonNumber } from './bson-numbers';
import { matchView } from './match-view';
import { TRACED_STAGE_NAMES, typedResult } from './typed-stages';
import { TypedLiteral } from './typed-literal';

/** mingo's arithmetic operators and the width-keeping ones that stand in for them. */
const TYPED_NAMES: Record<string, string> = {
  $add: '$bsonAdd',
  $subtract: '$bsonSubtract',
  $multiply: '$bsonMultiply',
  $divide: '$bsonDivide',
  $sum: '$bsonSum',
  $avg: '$bsonAvg',
  $first: '$bsonFirst',
  $last: '$bsonLast',
  $min: '$bsonMin',
  $max: '$bsonMax',
  $push: '$bsonPush',
  $addToSet: '$bsonAddToSet',
};
/** Stages whose fields hold computed values; inside any other operator a value is consumed, not kept. */
const VALUE_STAGES = new Set([
  '$group',
  '$project',
  '$addFields',
  '$set',
  '$bucket',
  '$bucketAuto',
  '$replaceRoot',
  '$replaceWith',
  '$facet',
  '$lookup',
  '$unionWith',
]);
/** Converts each document to the plain view mingo compares with (see match-view.ts). */
export const PLAIN_VIEW_STAGE = '$plainView';
const MAX_DEPTH = 64;

/**
 * Renames `$add`, `$subtract`, `$multiply`, `$divide`, `$sum`, `$avg` (and the accumulators that
 * pick values: `$first`, `$last`, `$min`, `$max`, `$push`, `$addToSet`) to the typed operators
 * where their result is kept in a document (a `$group` accumulator, a `$project` / `$addFields`
 * field, their arguments in turn), so an int64 sum stays an int64 and decimal arithmetic stays
 * decimal. Where another operator consumes the result (`$cond`, `$gt`, `$round`, ...) mingo's own
 * operator is kept, since mingo's operators compute on plain numbers only. After a stage that
 * computed typed values, a `$plainView` stage converts them back to plain numbers for the next
 * stages (the raw document stays reachable, so what passes through unchanged keeps its width).
 * `$project`, `$addFields` and `$set` become their traced versions (typed-stages.ts).
 * Pipeline updates run on raw documents and ask for neither.
 */
export function typedPipeline(stages: Document[], plainViews = true): { stages: Document[]; typed: boolean } {
  let typed = false;
  const walk = (value: unknown, consumed: boolean, depth: number): unknown => {
    if (depth > MAX_DEPTH) return value;
    if (Array.isArray(value)) return value.map((item) => walk(item, consumed, depth + 1));
    if (value === null || typeof value !== 'object' || value.constructor !== Object) return value;
    const out: Document = {};
    for (const [key, item] of Object.entries(value)) {
      if (key in TYPED_NAMES && !consumed) {
        typed = true;
        out[TYPED_NAMES[key]] = keepTypedLiterals(walk(item, false, depth + 1));
      } else if (key === '$facet' && isPlainObject(item)) {
        out[key] = Object.fromEntries(
          Object.entries(item).map(([name, inner]) => [
            name,
            Array.isArray(inner) ? rewrite(inner as Document[]) : inner,
          ]),
        );
      } else if (key === 'pipeline' && Array.isArray(item)) out[key] = rewrite(item as Document[]);
      else out[key] = walk(item, consumed || (key.startsWith('$') && !VALUE_STAGES.has(key)), depth + 1);
    }
    return out;
  };
  const rewrite = (list: Document[]): Document[] => {
    const result: Document[] = [];
    list.forEach((stage, position) => {
      const before = typed;
      typed = false;
      let rewritten = walk(stage, false, 0) as Document;
      const computesTyped = typed;
      const name = Object.keys(rewritten)[0];
      if (plainViews && name in TRACED_STAGE_NAMES) {
        typed = true;
        // A `$match` filter stays as written (TypedLiteral): it may compare int64 beyond 2^53.
        rewritten = {
          [TRACED_STAGE_NAMES[name]]: name === '$match' ? new TypedLiteral(rewritten[name]) : rewritten[name],
        };
      }
      result.push(rewritten);
      // Only typed operators put wrappers into documents; a traced stage's output is plain already.
      if (computesTyped && plainViews && position < list.length - 1) result.push({ [PLAIN_VIEW_STAGE]: {} });
      typed ||= before;
    });
    return result;
  };
  const result = rewrite(stages);
  return { stages: typed ? result : stages, typed };
}

/** Wraps Long / Double / Decimal128 literal arguments so the plain view of the pipeline leaves them as written. */
function keepTypedLiterals(args: unknown): unknown {
  const keep = (arg: unknown) =>
    arg !== null && typeof arg === 'object' && isBsonNumber(arg) ? new TypedLiteral(arg) : arg;
  return Array.isArray(args) ? args.map(keep) : keep(args);
}

function isPlainObject(value: unknown): value is Document {
  return value !== null && typeof value === 'object' && value.constructor === Object;
}

type LazyIterator = { map: (f: (doc: unknown) => unknown) => LazyIterator };

/** The `$plainView` pipeline stage. */
export function plainViewStage(collection: LazyIterator): LazyIterator {
  return collection.map((doc) => matchView(typedResult(doc as Document)));
}
