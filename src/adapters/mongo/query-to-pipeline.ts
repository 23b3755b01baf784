import type { Document } from 'mongodb';
import { BadRequest } from '../../domain/errors';
import { copyWith } from '../../domain/plain-record';
import type { QueryFilters, SortDirection } from '../../domain/query';

export type Projection = Record<string, 0 | 1>;

/** A stage `{ $service: {} }` in `params.pipeline` marks where the query stages go. */
export function isServiceStage(stage: unknown): boolean {
  return (
    typeof stage === 'object' && stage !== null && Object.keys(stage).length === 1 && Object.hasOwn(stage, '$service')
  );
}

/**
 * `$select` as a projection: the id field is always kept. With a custom id field, `_id` is left
 * out unless selected, so every adapter returns the same keys. Paths covered by a selected
 * parent are dropped (MongoDB refuses `a` together with `a.b`).
 */
export function selectToProjection(select: readonly string[] | undefined, idField: string): Projection | undefined {
  if (!select) return undefined;
  const fields = [...new Set([idField, ...select])].sort((a, b) => a.length - b.length);
  const kept: string[] = [];
  for (const field of fields) if (!kept.some((parent) => field.startsWith(`${parent}.`))) kept.push(field);
  const projection: Projection = {};
  for (const field of kept) projection[field] = 1;
  if (idField !== '_id' && !kept.includes('_id')) projection._id = 0;
  return projection;
}

/** The sort with `_id` as the last key, so ties come back in the same order on every page. */
export function stableSort(sort: Record<string, SortDirection> | undefined): Record<string, SortDirection> | undefined {
  if (!sort || Object.keys(sort).length === 0) return undefined;
  return Object.hasOwn(sort, '_id') ? sort : copyWith(sort, { _id: 1 });
}

/** The query stages in the seed's order: `$match`, `$sort`, `$skip`, `$limit`. */
export function queryStages(filter: Document, filters: QueryFilters): Document[] {
  const stages: Document[] = [{ $match: filter }];
  const sort = stableSort(filters.$sort);
  if (sort) stages.push({ $sort: sort });
  if (filters.$skip) stages.push({ $skip: filters.$skip });
  // MongoDB refuses `$limit: 0`; "no records" is a match that nothing passes.
  if (filters.$limit === 0) stages.push({ $match: { _id: { $in: [] } } });
  else if (filters.$limit !== undefined) stages.push({ $limit: filters.$limit });
  return stages;
}

/**
 * The whole `find` pipeline. Without `params.pipeline`: the query stages then `$project`. With
 * one: the query stages replace its `{ $service: {} }` stage (or come first when it has none),
 * and `$project` comes last, so `$select` names the fields of the final documents (fields added
 * by `$lookup`/`$addFields` are kept when selected, and fields a later stage reads are not
 * removed too early).
 */
export function buildPipeline(
  filter: Document,
  filters: QueryFilters,
  projection: Projection | undefined,
  pipeline?: readonly Document[],
): Document[] {
  const stages = placeQueryStages(queryStages(filter, filters), pipeline);
  if (projection) stages.push({ $project: projection });
  return stages;
}

/** The pipeline counting what `find` pages through: the same stages without sort, skip, limit and projection. */
export function buildCountPipeline(filter: Document, pipeline?: readonly Document[]): Document[] {
  return [...placeQueryStages([{ $match: filter }], pipeline), { $count: 'total' }];
}

function placeQueryStages(stages: Document[], pipeline: readonly Document[] | undefined): Document[] {
  if (!pipeline || pipeline.length === 0) return [...stages];
  if (!Array.isArray(pipeline)) throw new BadRequest('params.pipeline must be an array of stages');
  const positions = pipeline.flatMap((stage, index) => (isServiceStage(stage) ? [index] : []));
  if (positions.length > 1) throw new BadRequest('params.pipeline may hold only one $service stage');
  if (positions.length === 0) return [...stages, ...pipeline];
  const [at] = positions;
  return [...pipeline.slice(0, at), ...stages, ...pipeline.slice(at + 1)];
}
