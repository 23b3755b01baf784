import type { Document } from 'bson';
import type { Position } from 'geojson';
import { CommandError } from '../base/command-error';
import { isBsonNumber, numberValue } from '../query/bson-numbers';
import { pathValuesOf } from '../query/bson-type';
import type { ReadSource } from '../query/read-source';
import { EARTH_RADIUS_METERS, planarDistance, sphericalDistance } from './distance';
import { legacyPair, locationsOf } from './geometry';

export type GeoIndexKind = '2d' | '2dsphere';

/**
 * Where to measure from and how (mongod's units: metres for a GeoJSON point, radians or flat units for a legacy pair).
 */
export interface NearSpec {
  readonly point: Position;
  /** On the sphere (2dsphere, `$nearSphere`, `spherical: true`) rather than flat (2d). */
  readonly spherical: boolean;
  /** The near point was GeoJSON: distances are metres. */
  readonly metres: boolean;
  readonly minDistance?: number;
  readonly maxDistance?: number;
}

export interface NearMatch {
  readonly doc: Document;
  readonly distance: number;
  /** The location that was nearest (for `includeLocs`). */
  readonly location: unknown;
}

/** The geo indexes of a collection: field and kind, in creation order. */
export interface GeoIndex {
  readonly field: string;
  readonly kind: GeoIndexKind;
  readonly name: string;
}

export function geoIndexes(store: ReadSource | undefined): GeoIndex[] {
  const found: GeoIndex[] = [];
  for (const index of store?.secondary?.orderedIndexes() ?? []) {
    for (const [field, kind] of Object.entries(index.spec.key))
      if (kind === '2d' || kind === '2dsphere') found.push({ field, kind, name: index.name });
  }
  return found;
}

/** Documents with a location in `field` within the distance bounds, nearest first (ties keep their order). */
export function nearDocuments(docs: Iterable<Document>, field: string, spec: NearSpec): NearMatch[] {
  const matches: NearMatch[] = [];
  for (const doc of docs) {
    let best: NearMatch | undefined;
    for (const value of pathValuesOf(doc, field)) {
      for (const location of locationsOf(value)) {
        const distance = measure(spec, location.geometry, location.legacy);
        if (!best || distance < best.distance) best = { doc, distance, location: location.value };
      }
    }
    if (!best || !Number.isFinite(best.distance)) continue;
    if (spec.minDistance !== undefined && best.distance < spec.minDistance) continue;
    if (spec.maxDistance !== undefined && best.distance > spec.maxDistance) continue;
    matches.push(best);
  }
  return matches
    .map((match, position) => ({ match, position }))
    .sort((a, b) => a.match.distance - b.match.distance || a.position - b.position)
    .map(({ match }) => match);
}

function measure(spec: NearSpec, geometry: Parameters<typeof sphericalDistance>[1], legacy: boolean): number {
  if (!spec.spherical) return legacy ? planarDistance(spec.point, geometry) : Infinity;
  const angle = sphericalDistance(spec.point, geometry);
  return spec.metres ? angle * EARTH_RADIUS_METERS : angle;
}

/** A near point: GeoJSON (`{ type: 'Point', coordinates }`) or a legacy pair. */
export function nearPoint(value: unknown, operator: string): { point: Position; geoJson: boolean } {
  const pair = legacyPair(value);
  if (pair) return { point: pair, geoJson: false };
  const geometry = value as Document | null;
  if (geometry?.type === 'Point' && Array.isArray(geometry.coordinates)) {
    const coordinates = legacyPair(geometry.coordinates);
    if (coordinates) return { point: coordinates, geoJson: true };
  }
  throw new CommandError('BadValue', `invalid argument in geo near query: ${operator}`);
}

export function distanceBound(value: unknown, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!isBsonNumber(value) || numberValue(value) < 0)
    throw new CommandError('BadValue', `${name} must be a non-negative number`);
  return numberValue(value);
}
