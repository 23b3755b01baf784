import type { Geometry, MultiPolygon, Polygon, Position } from 'geojson';
import {
  arcsCross,
  arcsMeet,
  edgesOf,
  inPolygon,
  onBoundary,
  toVector,
  type Path,
  type Vector,
} from './spherical-geometry';

/** One simple part of a geometry on the sphere. */
type Part = { kind: 'point'; point: Vector } | { kind: 'line'; path: Path } | { kind: 'polygon'; rings: Path[] };

/** The simple parts of a GeoJSON geometry (multi-geometries and collections split up). */
function partsOf(geometry: Geometry): Part[] {
  const polygon = (rings: Position[][]): Part => ({ kind: 'polygon', rings: rings.map((ring) => ring.map(toVector)) });
  const line = (coordinates: Position[]): Part => ({ kind: 'line', path: coordinates.map(toVector) });
  switch (geometry.type) {
    case 'Point':
      return [{ kind: 'point', point: toVector(geometry.coordinates) }];
    case 'MultiPoint':
      return geometry.coordinates.map((coordinates) => ({ kind: 'point', point: toVector(coordinates) }));
    case 'LineString':
      return [line(geometry.coordinates)];
    case 'MultiLineString':
      return geometry.coordinates.map(line);
    case 'Polygon':
      return [polygon(geometry.coordinates)];
    case 'MultiPolygon':
      return geometry.coordinates.map(polygon);
    case 'GeometryCollection':
      return geometry.geometries.flatMap(partsOf);
  }
}

function verticesOf(part: Part): Vector[] {
  return part.kind === 'point' ? [part.point] : part.kind === 'line' ? [...part.path] : part.rings.flat();
}

function edgesOfPart(part: Part): Array<[Vector, Vector]> {
  return part.kind === 'point' ? [] : part.kind === 'line' ? edgesOf(part.path) : part.rings.flatMap(edgesOf);
}

function samePoint(a: Vector, b: Vector): boolean {
  return Math.abs(a[0] - b[0]) < 1e-12 && Math.abs(a[1] - b[1]) < 1e-12 && Math.abs(a[2] - b[2]) < 1e-12;
}

function partsMeet(a: Part, b: Part): boolean {
  if (a.kind === 'point' && b.kind === 'point') return samePoint(a.point, b.point);
  if (a.kind === 'polygon' && verticesOf(b).some((vertex) => inPolygon(vertex, a.rings))) return true;
  if (b.kind === 'polygon' && verticesOf(a).some((vertex) => inPolygon(vertex, b.rings))) return true;
  if (a.kind === 'point') return edgesOfPart(b).some(([c, d]) => arcsMeet(a.point, a.point, c, d));
  if (b.kind === 'point') return edgesOfPart(a).some(([c, d]) => arcsMeet(b.point, b.point, c, d));
  const other = edgesOfPart(b);
  return edgesOfPart(a).some(([p, q]) => other.some(([c, d]) => arcsMeet(p, q, c, d)));
}

/**
 * `$geoIntersects` on the sphere, set up once per query: edges are great-circle arcs (right across
 * the antimeridian and for long edges).
 */
export function geodesicIntersection(query: Geometry): (stored: Geometry) => boolean {
  const queryParts = partsOf(query);
  return (stored) => partsOf(stored).some((part) => queryParts.some((other) => partsMeet(part, other)));
}

/**
 * `$geoWithin` a `$geometry` polygon on the sphere, set up once per query: every vertex is inside,
 * no edge crosses the area's boundary (a geodesic edge between two inside vertices may bow out of
 * it), and no hole of the area lies inside a stored polygon.
 */
export function geodesicContainment(area: Polygon | MultiPolygon): (stored: Geometry) => boolean {
  const regions = partsOf(area) as Array<Extract<Part, { kind: 'polygon' }>>;
  return (stored) => partsOf(stored).every((part) => regions.some((region) => partWithin(part, region.rings)));
}

function partWithin(part: Part, rings: Path[]): boolean {
  if (!verticesOf(part).every((vertex) => inPolygon(vertex, rings))) return false;
  const boundary = rings.flatMap(edgesOf);
  if (edgesOfPart(part).some(([p, q]) => boundary.some(([c, d]) => arcsCross(p, q, c, d)))) return false;
  return (
    part.kind !== 'polygon' ||
    !rings
      .slice(1)
      .some((hole) => hole.some((vertex) => inPolygon(vertex, part.rings) && !onBoundary(vertex, part.rings)))
  );
}
