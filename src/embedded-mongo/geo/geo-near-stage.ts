import type { Document } from 'bson';
import { CommandError } from '../base/command-error';
import { isBsonNumber, numberValue } from '../query/bson-numbers';
import type { Collation } from '../query/collation';
import { compileFilter } from '../query/match';
import type { ReadSource } from '../query/read-source';
import { distanceBound, geoIndexes, nearDocuments, nearPoint, type GeoIndex } from './geo-near';

export interface GeoNearSettings {
  readonly collation?: Collation;
  readonly variables?: Document;
}

const OPTIONS = new Set([
  'near',
  'distanceField',
  'spherical',
  'maxDistance',
  'minDistance',
  'query',
  'key',
  'distanceMultiplier',
  'includeLocs',
]);

/**
 * The `$geoNear` stage (first in a pipeline): documents matching `query` with a location in the
 * geo-indexed `key`, nearest first, each with its distance in `distanceField` (times
 * `distanceMultiplier`) and, with `includeLocs`, the location it was measured to. Units as in
 * mongod: metres for a GeoJSON `near`, radians for a legacy pair with `spherical`, flat
 * coordinate units otherwise.
 */
export function geoNearStage(store: ReadSource | undefined, raw: unknown, settings: GeoNearSettings): Document[] {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
    throw new CommandError('Location40602', '$geoNear must be an object');
  const options = raw as Document;
  for (const name of Object.keys(options))
    if (!OPTIONS.has(name)) throw new CommandError('BadValue', `Unknown argument to $geoNear: ${name}`);
  if (typeof options.distanceField !== 'string' || options.distanceField === '')
    throw new CommandError('BadValue', "$geoNear requires a 'distanceField' option as a String");
  if (options.near === undefined) throw new CommandError('BadValue', "$geoNear requires a 'near' option as an Array");
  const { point, geoJson } = nearPoint(options.near, '$geoNear');
  const index = chooseIndex(store, options.key);
  const multiplier = options.distanceMultiplier === undefined ? 1 : numberValue(options.distanceMultiplier);
  if (!isBsonNumber(options.distanceMultiplier ?? 1) || multiplier < 0)
    throw new CommandError('BadValue', 'distanceMultiplier must be a non-negative number');
  const matches = compileFilter(options.query, settings);
  const candidates = [...(store?.documents() ?? [])].filter((doc) => matches(doc));
  const spherical = geoJson || options.spherical === true || index.kind === '2dsphere';
  const found = nearDocuments(candidates, index.field, {
    point,
    spherical,
    metres: geoJson,
    minDistance: distanceBound(options.minDistance, 'minDistance'),
    maxDistance: distanceBound(options.maxDistance, 'maxDistance'),
  });
  return found.map(({ doc, distance, location }) => {
    let out = withPath(doc, options.distanceField as string, distance * multiplier);
    if (typeof options.includeLocs === 'string') out = withPath(out, options.includeLocs, location);
    return out;
  });
}

function chooseIndex(store: ReadSource | undefined, key: unknown): GeoIndex {
  const indexes = geoIndexes(store);
  if (key !== undefined) {
    if (typeof key !== 'string' || key === '')
      throw new CommandError('BadValue', "$geoNear parameter 'key' must be of type string");
    const keyed = indexes.find((index) => index.field === key);
    if (!keyed)
      throw new CommandError(
        'IndexNotFound',
        `$geoNear requires a 2d or 2dsphere index on ${key}, but none were found`,
      );
    return keyed;
  }
  if (indexes.length === 0)
    throw new CommandError('IndexNotFound', '$geoNear requires a 2d or 2dsphere index, but none were found');
  for (const kind of ['2d', '2dsphere'] as const) {
    const ofKind = indexes.filter((index) => index.kind === kind);
    if (ofKind.length > 1)
      throw new CommandError('IndexNotFound', `There is more than one ${kind} index; unsure which to use for $geoNear`);
    if (ofKind.length === 1) return ofKind[0];
  }
  return indexes[0];
}

/** A copy of `doc` with a dotted path set (objects along the path copied, the stored document untouched). */
function withPath(doc: Document, path: string, value: unknown): Document {
  const [head, ...tail] = path.split('.');
  const current = doc[head];
  const nested =
    current !== null && typeof current === 'object' && current.constructor === Object ? (current as Document) : {};
  return { ...doc, [head]: tail.length === 0 ? value : withPath(nested, tail.join('.'), value) };
}
