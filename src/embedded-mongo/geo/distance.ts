import { distance as greatCircle } from '@turf/distance';
import { pointToLineDistance } from '@turf/point-to-line-distance';
import type { Geometry, Position } from 'geojson';
import { inPolygon, toVector } from './spherical-geometry';

/** mongod's sphere for GeoJSON distances: radius 6378.1 km (not the mean 6371 km). */
export const EARTH_RADIUS_METERS = 6378.1 * 1000;

/**
 * The angle (radians) on the sphere from a point to the nearest point of a geometry: 0 inside a
 * polygon, else the nearest edge or vertex, as mongod's $near / $geoNear measure it.
 */
export function sphericalDistance(from: Position, geometry: Geometry): number {
  switch (geometry.type) {
    case 'Point':
      return greatCircle(from, geometry.coordinates, { units: 'radians' });
    case 'MultiPoint':
      return Math.min(...geometry.coordinates.map((point) => greatCircle(from, point, { units: 'radians' })));
    case 'LineString':
      return toLine(from, geometry.coordinates);
    case 'MultiLineString':
      return Math.min(...geometry.coordinates.map((line) => toLine(from, line)));
    case 'Polygon':
      return toPolygon(from, geometry.coordinates);
    case 'MultiPolygon':
      return Math.min(...geometry.coordinates.map((polygon) => toPolygon(from, polygon)));
    case 'GeometryCollection':
      return Math.min(...geometry.geometries.map((part) => sphericalDistance(from, part)));
  }
}

function toLine(from: Position, line: Position[]): number {
  return pointToLineDistance(from, { type: 'LineString', coordinates: line }, { units: 'radians', method: 'geodesic' });
}

function toPolygon(from: Position, rings: Position[][]): number {
  if (
    inPolygon(
      toVector(from),
      rings.map((ring) => ring.map(toVector)),
    )
  )
    return 0;
  return Math.min(...rings.map((ring) => toLine(from, ring)));
}

/** Flat distance in coordinate units (2d index semantics), to a point or the nearest vertex. */
export function planarDistance(from: Position, geometry: Geometry): number {
  if (geometry.type === 'Point')
    return Math.hypot(geometry.coordinates[0] - from[0], geometry.coordinates[1] - from[1]);
  if (geometry.type === 'MultiPoint')
    return Math.min(...geometry.coordinates.map((point) => Math.hypot(point[0] - from[0], point[1] - from[1])));
  return Infinity;
}
