import type { Position } from 'geojson';

/** A point on the unit sphere. */
export type Vector = readonly [number, number, number];

/** A ring or a line as points on the sphere, with the edges between consecutive ones. */
export type Path = readonly Vector[];

const ON_ARC_TOLERANCE = 1e-12;

/** A [longitude, latitude] position (degrees) as a unit vector. */
export function toVector([lng, lat]: Position): Vector {
  const phi = (lat * Math.PI) / 180;
  const lambda = (lng * Math.PI) / 180;
  return [Math.cos(phi) * Math.cos(lambda), Math.cos(phi) * Math.sin(lambda), Math.sin(phi)];
}

function cross(a: Vector, b: Vector): Vector {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}

function dot(a: Vector, b: Vector): number {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

function angle(a: Vector, b: Vector): number {
  return Math.atan2(Math.hypot(...cross(a, b)), dot(a, b));
}

/** Which side of the great circle through a and b (in that direction) c lies on: 1, -1, or 0 on it. */
function orientation(a: Vector, b: Vector, c: Vector): number {
  const det = dot(cross(a, b), c);
  return Math.abs(det) < ON_ARC_TOLERANCE ? 0 : Math.sign(det);
}

/** Whether p lies on the shorter great-circle arc from a to b. */
export function onArc(p: Vector, a: Vector, b: Vector): boolean {
  return angle(a, p) + angle(p, b) - angle(a, b) < 1e-9;
}

/**
 * Whether the arcs a-b and c-d cross at a point interior to both: the four orientations
 * (a, c, b), (a, b, d), (c, b, d), (c, d, a) agree (the test S2 uses; it stays right for arcs on
 * opposite sides of the sphere, where the great circles also meet).
 */
export function arcsCross(a: Vector, b: Vector, c: Vector, d: Vector): boolean {
  const acb = -orientation(a, b, c);
  if (acb === 0 || orientation(a, b, d) !== acb) return false;
  return -orientation(c, d, b) === acb && orientation(c, d, a) === acb;
}

/** Whether the arcs a-b and c-d share any point (crossing, touching or overlapping). */
export function arcsMeet(a: Vector, b: Vector, c: Vector, d: Vector): boolean {
  return arcsCross(a, b, c, d) || onArc(a, c, d) || onArc(b, c, d) || onArc(c, a, b) || onArc(d, a, b);
}

/** The edges of a path: consecutive pairs of its points. */
export function edgesOf(path: Path): Array<[Vector, Vector]> {
  return path.slice(1).map((point, i) => [path[i], point]);
}

/** Whether p lies on the polygon's boundary. */
export function onBoundary(p: Vector, rings: readonly Path[]): boolean {
  return rings.some((ring) => edgesOf(ring).some(([a, b]) => onArc(p, a, b)));
}

/**
 * Whether p lies in the polygon (outer ring and holes; the boundary counts as inside). Edges are
 * great-circle arcs and the polygon is the smaller region its outer ring bounds, as for mongod's
 * 2dsphere queries: the arc from p to a point certainly outside (opposite the outer ring's vertices)
 * crosses the rings an odd number of times exactly when p is inside.
 */
export function inPolygon(p: Vector, rings: readonly Path[]): boolean {
  if (onBoundary(p, rings)) return true;
  const outside = outsidePoint(rings[0], p);
  let crossings = 0;
  for (const ring of rings) for (const [a, b] of edgesOf(ring)) if (arcsCross(p, outside, a, b)) crossings++;
  return crossings % 2 === 1;
}

/**
 * A point outside the ring: the antipode of its vertices' mean direction, nudged off any special
 * alignment with the ring's vertices, and moved if it would be antipodal to p (no single arc).
 */
function outsidePoint(ring: Path, p: Vector): Vector {
  const sum = ring.slice(1).reduce<Vector>((acc, v) => [acc[0] + v[0], acc[1] + v[1], acc[2] + v[2]], [0, 0, 0]);
  let candidate: Vector = normalize([-sum[0] + 1.3e-7, -sum[1] + 2.9e-7, -sum[2] + 0.7e-7]);
  if (dot(candidate, p) < -1 + 1e-9)
    candidate = normalize([candidate[0] + 1e-4, candidate[1] - 2e-4, candidate[2] + 3e-4]);
  return candidate;
}

function normalize(v: Vector): Vector {
  const length = Math.hypot(...v) || 1;
  return [v[0] / length, v[1] / length, v[2] / length];
}
