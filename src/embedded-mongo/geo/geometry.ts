import type { Document } from 'bson';
import type { Geometry, Point, Position } from 'geojson';
import { CommandError } from '../base/command-error';
import { isBsonNumber, numberValue } from '../query/bson-numbers';

const GEOMETRY_TYPES = new Set([
  'Point',
  'MultiPoint',
  'LineString',
  'MultiLineString',
  'Polygon',
  'MultiPolygon',
  'GeometryCollection',
]);

/** A location as stored: a GeoJSON geometry, or a legacy coordinate pair ([x, y] or { x, y }). */
export interface Location {
  readonly geometry: Geometry;
  /** A legacy pair: distances to it may be planar (2d index). */
  readonly legacy: boolean;
  /** The stored value, for `includeLocs`. */
  readonly value: unknown;
}

/** Reads a stored value as a location; anything else (a string, a bad geometry) is no location. */
export function toLocation(value: unknown): Location | undefined {
  const pair = legacyPair(value);
  if (pair) return { geometry: { type: 'Point', coordinates: pair }, legacy: true, value };
  if (!isGeoJson(value)) return undefined;
  try {
    return { geometry: readGeometry(value), legacy: false, value };
  } catch {
    return undefined;
  }
}

/**
 * The locations a field holds: one, or several when it is an array of locations (a multikey
 * geo field). A legacy pair is itself an array of two numbers.
 */
export function locationsOf(value: unknown): Location[] {
  const single = toLocation(value);
  if (single) return [single];
  if (!Array.isArray(value)) return [];
  return value.map(toLocation).filter((location): location is Location => location !== undefined);
}

/** `[x, y]` or `{ x, y }` (the first two fields) when both are numbers. */
export function legacyPair(value: unknown): Position | undefined {
  let items: unknown[];
  if (Array.isArray(value)) items = value;
  else if (value !== null && typeof value === 'object' && value.constructor === Object && !('type' in value))
    items = Object.values(value);
  else return undefined;
  if (items.length < 2 || !isBsonNumber(items[0]) || !isBsonNumber(items[1])) return undefined;
  return [numberValue(items[0]), numberValue(items[1])];
}

function isGeoJson(value: unknown): value is Document {
  return (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as Document).type === 'string' &&
    GEOMETRY_TYPES.has((value as Document).type as string)
  );
}

/** A query's GeoJSON operand (`$geometry`), validated with mongod's kind of message. */
export function queryGeometry(value: unknown): Geometry {
  if (!isGeoJson(value)) throw new CommandError('BadValue', `unknown GeoJSON type: ${JSON.stringify(value)}`);
  return readGeometry(value);
}

export function queryPoint(value: unknown): Point {
  const geometry = queryGeometry(value);
  if (geometry.type !== 'Point')
    throw new CommandError('BadValue', `$near requires a point, given ${JSON.stringify(value)}`);
  return geometry;
}

function readGeometry(value: Document): Geometry {
  const type = value.type as Geometry['type'];
  if (type === 'GeometryCollection') {
    if (!Array.isArray(value.geometries))
      throw new CommandError('BadValue', 'GeometryCollection geometries must be an array');
    return { type, geometries: value.geometries.map((item) => queryGeometry(item)) };
  }
  const depth = { Point: 0, MultiPoint: 1, LineString: 1, MultiLineString: 2, Polygon: 2, MultiPolygon: 3 }[type];
  const coordinates = readCoordinates(value.coordinates, depth, type);
  if (type === 'Polygon') assertClosedRings(coordinates as Position[][]);
  if (type === 'MultiPolygon') (coordinates as Position[][][]).forEach(assertClosedRings);
  if (type === 'LineString' && (coordinates as Position[]).length < 2)
    throw new CommandError('BadValue', 'GeoJSON LineString must have at least 2 vertices');
  return { type, coordinates } as Geometry;
}

function readCoordinates(value: unknown, depth: number, type: string): unknown {
  if (!Array.isArray(value)) throw new CommandError('BadValue', `GeoJSON coordinates must be an array for ${type}`);
  if (depth > 0) return value.map((item) => readCoordinates(item, depth - 1, type));
  if (value.length < 2 || !value.every(isBsonNumber))
    throw new CommandError('BadValue', `${type} must only contain numeric elements`);
  const [lng, lat] = [numberValue(value[0]), numberValue(value[1])];
  if (Math.abs(lng) > 180 || Math.abs(lat) > 90) {
    throw new CommandError('BadValue', `longitude/latitude is out of bounds, lng: ${lng} lat: ${lat}`);
  }
  return [lng, lat];
}

function assertClosedRings(rings: Position[][]): void {
  for (const ring of rings) {
    const first = ring[0];
    const last = ring[ring.length - 1];
    if (ring.length < 4 || first[0] !== last[0] || first[1] !== last[1]) {
      throw new CommandError('BadValue', 'Loop is not closed, first vertex does not equal last vertex');
    }
  }
}

/** Every vertex of a geometry (what "within" tests for lines and polygons). */
export function vertices(geometry: Geometry): Position[] {
  switch (geometry.type) {
    case 'Point':
      return [geometry.coordinates];
    case 'MultiPoint':
    case 'LineString':
      return geometry.coordinates;
    case 'MultiLineString':
    case 'Polygon':
      return geometry.coordinates.flat();
    case 'MultiPolygon':
      return geometry.coordinates.flat(2);
    case 'GeometryCollection':
      return geometry.geometries.flatMap(vertices);
  }
}
