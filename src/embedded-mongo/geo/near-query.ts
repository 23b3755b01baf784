import type { Document } from 'bson';
import { CommandError } from '../base/command-error';
import type { QueryPlan } from '../indexes/query-plan';
import type { ReadSource } from '../query/read-source';
import { queryPoint } from './geometry';
import { distanceBound, geoIndexes, nearDocuments, nearPoint, type NearSpec } from './geo-near';

const NEAR_OPERATORS = ['$near', '$nearSphere'];
const NEAR_OPTIONS = new Set([...NEAR_OPERATORS, '$maxDistance', '$minDistance']);

/** The top-level field of a find filter that carries `$near` / `$nearSphere`, if any. */
export function nearField(filter: Document): string | undefined {
  for (const [field, condition] of Object.entries(filter)) {
    if (
      field.startsWith('$') ||
      condition === null ||
      typeof condition !== 'object' ||
      condition.constructor !== Object
    )
      continue;
    if (NEAR_OPERATORS.some((operator) => operator in condition)) return field;
  }
  return undefined;
}

export interface NearCandidates {
  readonly docs: Document[];
  readonly plan: QueryPlan;
  /** The filter without the near condition. */
  readonly rest: Document;
}

/**
 * Answers `{ field: { $near | $nearSphere: point, $minDistance, $maxDistance } }`: the documents
 * with a location within the bounds, nearest first. A GeoJSON point measures metres on the sphere;
 * a legacy pair measures flat units with a 2d index (`$near`) or radians (`$nearSphere`). Like
 * mongod, it needs a geo index on the field.
 */
export function nearCandidates(store: ReadSource, filter: Document, field: string): NearCandidates {
  const { [field]: condition, ...rest } = filter;
  const options = condition as Document;
  const operator = NEAR_OPERATORS.find((name) => name in options)!;
  const others = Object.fromEntries(Object.entries(options).filter(([key]) => !NEAR_OPTIONS.has(key)));
  if (Object.keys(others).length > 0) rest[field] = others;
  const argument = options[operator];
  const geoJson = argument !== null && typeof argument === 'object' && '$geometry' in (argument as Document);
  const bounds = geoJson ? (argument as Document) : options;
  const point = geoJson
    ? { point: queryPoint((argument as Document).$geometry).coordinates, geoJson: true }
    : nearPoint(argument, operator);
  const index = geoIndexes(store).find(
    (candidate) => candidate.field === field && (candidate.kind === '2dsphere' || !point.geoJson),
  );
  if (!index) {
    throw new CommandError(
      'NoQueryExecutionPlans',
      'error processing query: planner returned error :: caused by :: unable to find index for $geoNear query',
    );
  }
  const spec: NearSpec = {
    point: point.point,
    spherical: point.geoJson || operator === '$nearSphere' || index.kind === '2dsphere',
    metres: point.geoJson,
    minDistance: distanceBound(bounds.$minDistance, '$minDistance'),
    maxDistance: distanceBound(bounds.$maxDistance, '$maxDistance'),
  };
  const docs = nearDocuments(store.documents(), field, spec).map((match) => match.doc);
  return {
    docs,
    rest,
    plan: { stage: index.kind === '2d' ? 'GEO_NEAR_2D' : 'GEO_NEAR_2DSPHERE', indexName: index.name },
  };
}
