import type { Document } from 'bson';
import { CommandError } from '../base/command-error';
import { compareBson, typeRank } from './bson-compare';

/** The server expression a desugared `$bucket` evaluates for a value outside every bucket and no default. */
export const NO_BUCKET_MATCHED = '$noBucketMatched';

export function noBucketMatched(): never {
  throw new CommandError(
    'Location40066',
    '$switch could not find a matching branch for an input, and no default was specified.',
  );
}

/**
 * Replaces each valid `$bucket` (in `$facet`, `$lookup` and `$unionWith` pipelines too) with the
 * `$group` on a `$switch` plus `$sort: { _id: 1 }` that mongod itself desugars it into: a bucket
 * holds values from its boundary (inclusive) up to the next one (exclusive). mingo put a value
 * equal to a boundary into the bucket below. A spec this cannot read is left to mingo to refuse.
 */
export function desugarBuckets(stages: Document[]): Document[] {
  return stages.flatMap((stage) => {
    const name = Object.keys(stage)[0];
    const spec = stage[name] as unknown;
    if (name === '$bucket') return bucketAsGroup(spec) ?? [stage];
    if (name === '$facet' && isPlainObject(spec)) {
      return [
        {
          $facet: Object.fromEntries(
            Object.entries(spec).map(([facet, inner]) => [
              facet,
              Array.isArray(inner) ? desugarBuckets(inner as Document[]) : inner,
            ]),
          ),
        },
      ];
    }
    if ((name === '$lookup' || name === '$unionWith') && isPlainObject(spec) && Array.isArray(spec.pipeline)) {
      return [{ [name]: { ...spec, pipeline: desugarBuckets(spec.pipeline as Document[]) } }];
    }
    return [stage];
  });
}

function bucketAsGroup(spec: unknown): Document[] | undefined {
  if (!isPlainObject(spec) || !Array.isArray(spec.boundaries) || spec.boundaries.length < 2) return undefined;
  const boundaries = spec.boundaries as unknown[];
  const ascending = boundaries.every(
    (value, i) =>
      i === 0 || (typeRank(value) === typeRank(boundaries[i - 1]) && compareBson(boundaries[i - 1], value) < 0),
  );
  if (!ascending || spec.groupBy === undefined) return undefined;
  const branches = boundaries.slice(0, -1).map((lower, i) => ({
    case: {
      $and: [{ $gte: [spec.groupBy, { $literal: lower }] }, { $lt: [spec.groupBy, { $literal: boundaries[i + 1] }] }],
    },
    then: { $literal: lower },
  }));
  const fallback = 'default' in spec ? { $literal: spec.default } : { [NO_BUCKET_MATCHED]: [] };
  const output = isPlainObject(spec.output) ? spec.output : { count: { $sum: 1 } };
  return [{ $group: { _id: { $switch: { branches, default: fallback } }, ...output } }, { $sort: { _id: 1 } }];
}

function isPlainObject(value: unknown): value is Document {
  return value !== null && typeof value === 'object' && value.constructor === Object;
}
