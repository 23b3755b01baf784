import { arcsCross, arcsMeet, inPolygon, toVector } from '../../../src/embedded-mongo/geo/spherical-geometry';

const ring = (...points: number[][]) => [...points, points[0]].map(toVector);

describe('spherical geometry (edges are great-circle arcs, as in mongod 2dsphere queries)', () => {
  test('a polygon around a pole contains the pole and nothing on the other side', () => {
    const arctic = [ring([0, 80], [90, 80], [180, 80], [-90, 80])];
    expect(inPolygon(toVector([0, 90]), arctic)).toBe(true);
    expect(inPolygon(toVector([45, 85]), arctic)).toBe(true);
    expect(inPolygon(toVector([45, 70]), arctic)).toBe(false);
    expect(inPolygon(toVector([0, -90]), arctic)).toBe(false);
  });

  test('holes are outside, the boundary is inside', () => {
    const withHole = [ring([-10, -10], [10, -10], [10, 10], [-10, 10]), ring([-2, -2], [2, -2], [2, 2], [-2, 2])];
    expect(inPolygon(toVector([5, 5]), withHole)).toBe(true);
    expect(inPolygon(toVector([0, 0]), withHole)).toBe(false);
    expect(inPolygon(toVector([10, 0]), withHole)).toBe(true);
  });

  test('arcs on opposite sides of the sphere do not cross although their great circles meet', () => {
    const [a, b] = [toVector([-10, 0]), toVector([10, 0])];
    expect(arcsCross(a, b, toVector([0, -10]), toVector([0, 10]))).toBe(true);
    expect(arcsCross(a, b, toVector([180, -10]), toVector([180, 10]))).toBe(false);
  });

  test('arcs that only touch at an end meet without crossing', () => {
    const [a, b, c] = [toVector([0, 0]), toVector([10, 0]), toVector([10, 10])];
    expect(arcsCross(a, b, b, c)).toBe(false);
    expect(arcsMeet(a, b, b, c)).toBe(true);
  });
});
