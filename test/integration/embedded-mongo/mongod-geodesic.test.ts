import type { Collection, Document } from 'mongodb';
import { startFixture, stopFixture, type Fixture } from './embedded-mongo-fixture';

const point = (lng: number, lat: number) => ({ type: 'Point', coordinates: [lng, lat] });
const line = (...coordinates: number[][]) => ({ type: 'LineString', coordinates });
const polygon = (...ring: number[][]) => ({ type: 'Polygon', coordinates: [[...ring, ring[0]]] });

/** A band between two latitudes with a vertex every 10° of longitude, so its edges stay close to the parallels. */
function band(west: number, east: number, south: number, north: number): Document {
  const longitudes = Array.from({ length: (east - west) / 10 + 1 }, (_, i) => west + i * 10);
  return polygon(...longitudes.map((lng) => [lng, south]), ...[...longitudes].reverse().map((lng) => [lng, north]));
}

/** 20° wide around the antimeridian: from 170°E eastwards to 170°W. */
const ACROSS_ANTIMERIDIAN = polygon([170, -10], [-170, -10], [-170, 10], [170, 10]);

describe('embedded mongo: 2dsphere $geoIntersects / $geoWithin with geodesic edges, as in mongod 7', () => {
  let f: Fixture;
  let shapes: Collection<Document>;
  beforeAll(async () => {
    f = await startFixture();
  });
  afterAll(() => stopFixture(f));
  beforeEach(async () => {
    shapes = f.db.collection('geodesic_shapes');
    await shapes.drop().catch(() => undefined);
    await shapes.insertMany([
      { _id: 'dateline' as never, loc: point(180, 0) },
      { _id: 'east-of-dateline' as never, loc: point(-175, 5) },
      { _id: 'west-of-dateline' as never, loc: point(175, -5) },
      { _id: 'greenwich' as never, loc: point(0, 0) },
      { _id: 'across-line' as never, loc: line([175, 0], [-175, 0]) },
      { _id: 'arctic-line' as never, loc: line([-60, 60], [60, 60]) },
      { _id: 'short-line' as never, loc: line([-5, 58], [5, 58]) },
    ]);
  });

  const ids = async (filter: Document) => (await shapes.find(filter).toArray()).map((doc) => String(doc._id)).sort();

  test.each([
    ['without', false],
    ['with', true],
  ])(
    'mongod reads a polygon crossing the antimeridian as the 20° band ' +
      'around it, not the 340° one (%s a 2dsphere index)',
    async (_, indexed) => {
      if (indexed) await shapes.createIndex({ loc: '2dsphere' });
      const inside = ['across-line', 'dateline', 'east-of-dateline', 'west-of-dateline'];
      expect(await ids({ loc: { $geoIntersects: { $geometry: ACROSS_ANTIMERIDIAN } } })).toEqual(inside);
      expect(await ids({ loc: { $geoWithin: { $geometry: ACROSS_ANTIMERIDIAN } } })).toEqual(inside);
    },
  );

  test(
    'mongod follows the great circle of a line: from 175°E to 175°W ' + 'it crosses the antimeridian, not Greenwich',
    async () => {
      const aroundGreenwich = polygon([-1, -1], [1, -1], [1, 1], [-1, 1]);
      expect(await ids({ loc: { $geoIntersects: { $geometry: aroundGreenwich } } })).toEqual(['greenwich']);
    },
  );

  test(
    'mongod finds a line where its geodesic bows away from the flat ' +
      'segment (60°N at 60°W to 60°E passes 73.9°N at 0°)',
    async () => {
      const nearTheTop = band(-10, 10, 72, 76);
      expect(await ids({ loc: { $geoIntersects: { $geometry: nearTheTop } } })).toEqual(['arctic-line']);
      // Both ends of the line lie in the band 55°N-62°N, but its middle leaves it: not within.
      const lowBand = band(-70, 70, 55, 62);
      expect(await ids({ loc: { $geoWithin: { $geometry: lowBand } } })).toEqual(['short-line']);
      expect(await ids({ loc: { $geoIntersects: { $geometry: lowBand } } })).toEqual(['arctic-line', 'short-line']);
    },
  );

  test('mongod $geoIntersects between lines crossing each other and $geoWithin a multipolygon', async () => {
    // The arctic line crosses the Greenwich meridian at 73.9°N, beyond a meridian segment ending at 70°N.
    expect(await ids({ loc: { $geoIntersects: { $geometry: line([0, 50], [0, 70]) } } })).toEqual(['short-line']);
    expect(await ids({ loc: { $geoIntersects: { $geometry: line([0, 50], [0, 80]) } } })).toEqual([
      'arctic-line',
      'short-line',
    ]);
    const both = {
      type: 'MultiPolygon',
      coordinates: [ACROSS_ANTIMERIDIAN.coordinates, polygon([-2, -2], [2, -2], [2, 2], [-2, 2]).coordinates],
    };
    expect(await ids({ loc: { $geoWithin: { $geometry: both } } })).toEqual([
      'across-line',
      'dateline',
      'east-of-dateline',
      'greenwich',
      'west-of-dateline',
    ]);
  });
});
