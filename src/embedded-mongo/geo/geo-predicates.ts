import type { Document } from 'bson';
import { booleanPointInPolygon } from '@turf/boolean-point-in-polygon';
import type { Geometry, Position } from 'geojson';
import { CommandError } from '../base/command-error';
import { isBsonNumber, numberValue } from '../query/bson-numbers';
import { pathValuesOf } from '../query/bson-type';
import { sphericalDistance } from './distance';
import { geodesicContainment, geodesicIntersection } from './geodesic-relations';
import { legacyPair, locationsOf, queryGeometry, vertices, type Location } from './geometry';

type Predicate = (obj: unknown) => boolean;
type LocationTest = (location: Location) => boolean;

/**
 * `$geoWithin` and `$geoIntersects` as query operators over a field's locations. Shapes:
 * `$geometry` (Polygon / MultiPolygon on the sphere, edges are great-circle arcs, see
 * geodesic-relations.ts), `$centerSphere` (radians), and the flat legacy shapes `$box`,
 * `$polygon`, `$center`, where a line or polygon is within a shape when all its vertices are.
 */
export function geoWithinOperator(selector: string, operand: unknown): Predicate {
  return matchingLocations(selector, withinTest(operand));
}

export function geoIntersectsOperator(selector: string, operand: unknown): Predicate {
  const spec = operand as Document | null;
  if (spec === null || typeof spec !== 'object' || !('$geometry' in spec))
    throw new CommandError('BadValue', '$geoIntersects not supported with provided geometry: requires $geometry');
  const intersects = geodesicIntersection(queryGeometry(spec.$geometry));
  return matchingLocations(selector, (location) => intersects(location.geometry));
}

function matchingLocations(selector: string, test: LocationTest): Predicate {
  return (obj) => pathValuesOf(obj, selector).some((value) => locationsOf(value).some(test));
}

function withinTest(operand: unknown): LocationTest {
  if (operand === null || typeof operand !== 'object')
    throw new CommandError('BadValue', '$geoWithin requires a shape');
  const [shape, argument] = Object.entries(operand as Document)[0] ?? [];
  switch (shape) {
    case '$geometry': {
      const area = queryGeometry(argument);
      if (area.type !== 'Polygon' && area.type !== 'MultiPolygon')
        throw new CommandError(
          'BadValue',
          `$geoWithin not supported with provided geometry: ${JSON.stringify(argument)}`,
        );
      const contains = geodesicContainment(area);
      return (location) => contains(location.geometry);
    }
    case '$centerSphere': {
      const [center, radius] = circle(argument, shape);
      const point: Geometry = { type: 'Point', coordinates: center };
      return (location) => vertices(location.geometry).every((vertex) => sphericalDistance(vertex, point) <= radius);
    }
    case '$center': {
      const [center, radius] = circle(argument, shape);
      return allVertices((vertex) => Math.hypot(vertex[0] - center[0], vertex[1] - center[1]) <= radius);
    }
    case '$box': {
      const corners = pairs(argument, shape, 2);
      const [minX, maxX] = [Math.min(corners[0][0], corners[1][0]), Math.max(corners[0][0], corners[1][0])];
      const [minY, maxY] = [Math.min(corners[0][1], corners[1][1]), Math.max(corners[0][1], corners[1][1])];
      return allVertices((vertex) => vertex[0] >= minX && vertex[0] <= maxX && vertex[1] >= minY && vertex[1] <= maxY);
    }
    case '$polygon': {
      const ring = pairs(argument, shape, 3);
      const polygon: Geometry = { type: 'Polygon', coordinates: [[...ring, ring[0]]] };
      return allVertices((vertex) => booleanPointInPolygon(vertex, polygon));
    }
    default:
      throw new CommandError('BadValue', `unknown geo specifier: ${String(shape)}: ${JSON.stringify(argument)}`);
  }
}

function allVertices(test: (vertex: Position) => boolean): LocationTest {
  return (location) => vertices(location.geometry).every(test);
}

function circle(argument: unknown, shape: string): [Position, number] {
  if (!Array.isArray(argument) || argument.length !== 2 || !isBsonNumber(argument[1]))
    throw new CommandError('BadValue', `${shape} requires [[x, y], radius]`);
  const center = legacyPair(argument[0]);
  const radius = numberValue(argument[1]);
  if (!center || !(radius >= 0))
    throw new CommandError('BadValue', `${shape} requires [[x, y], radius] with a non-negative radius`);
  return [center, radius];
}

function pairs(argument: unknown, shape: string, minimum: number): Position[] {
  const points = Array.isArray(argument) ? argument.map(legacyPair) : [];
  if (points.length < minimum || points.some((point) => point === undefined))
    throw new CommandError('BadValue', `${shape} requires at least ${minimum} points`);
  return points as Position[];
}
