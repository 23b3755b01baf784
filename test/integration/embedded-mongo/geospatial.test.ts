import type { Collection, Document } from 'mongodb';
import { startFixture, stopFixture, type Fixture } from './embedded-mongo-fixture';

/** mongod measures GeoJSON distances on a sphere of radius 6378.1 km. */
const RADIUS = 6378100;
const DEGREE = Math.PI / 180;

/** Central angle between two [lng, lat] points (haversine), the oracle for expected distances. */
function angleBetween([lng1, lat1]: number[], [lng2, lat2]: number[]): number {
  const h =
    Math.sin(((lat2 - lat1) * DEGREE) / 2) ** 2 +
    Math.cos(lat1 * DEGREE) * Math.cos(lat2 * DEGREE) * Math.sin(((lng2 - lng1) * DEGREE) / 2) ** 2;
  return 2 * Math.asin(Math.sqrt(h));
}

const ORIGIN = { type: 'Point', coordinates: [0, 0] };

describe('embedded mongo: geospatial queries', () => {
  let f: Fixture;
  let places: Collection<Document>;
  beforeAll(async () => {
    f = await startFixture();
  });
  afterAll(() => stopFixture(f));
  beforeEach(async () => {
    places = f.db.collection('places');
    await places.drop().catch(() => undefined);
    await places.insertMany([
      { _id: 'far' as never, kind: 'point', loc: { type: 'Point', coordinates: [10, 10] } },
      {
        _id: 'square' as never,
        kind: 'area',
        loc: {
          type: 'Polygon',
          coordinates: [
            [
              [-3, -1],
              [-2.5, -1],
              [-2.5, 1],
              [-3, 1],
              [-3, -1],
            ],
          ],
        },
      },
      { _id: 'east2' as never, kind: 'point', loc: { type: 'Point', coordinates: [2, 0] } },
      {
        _id: 'line' as never,
        kind: 'line',
        loc: {
          type: 'LineString',
          coordinates: [
            [1.5, -1],
            [1.5, 1],
          ],
        },
      },
      { _id: 'north1' as never, kind: 'point', loc: { type: 'Point', coordinates: [0, 1] } },
      { _id: 'origin' as never, kind: 'point', loc: ORIGIN },
      { _id: 'nowhere' as never, kind: 'point' },
    ]);
  });

  const ids = (docs: Document[]) => docs.map((doc) => String(doc._id));
  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => 'no error',
      (error: Error & { code?: number }) => ({ code: error.code, message: error.message }),
    );

  test("$near and $geoNear need a geo index, with mongod's codes and messages", async () => {
    expect(await failure(places.find({ loc: { $near: { $geometry: ORIGIN } } }).toArray())).toEqual({
      code: 291,
      message: expect.stringContaining('unable to find index for $geoNear query'),
    });
    expect(await failure(places.aggregate([{ $geoNear: { near: ORIGIN, distanceField: 'd' } }]).toArray())).toEqual({
      code: 27,
      message: '$geoNear requires a 2d or 2dsphere index, but none were found',
    });
  });

  describe('with a 2dsphere index', () => {
    beforeEach(async () => {
      await places.createIndex({ loc: '2dsphere' });
    });

    test(
      '$near orders points, lines and polygons by distance to their ' +
        'nearest point, within $minDistance / $maxDistance',
      async () => {
        expect(ids(await places.find({ loc: { $near: { $geometry: ORIGIN } } }).toArray())).toEqual([
          'origin',
          'north1',
          'line',
          'east2',
          'square',
          'far',
        ]);
        const bounded = { $geometry: ORIGIN, $minDistance: 0.5 * DEGREE * RADIUS, $maxDistance: 2.1 * DEGREE * RADIUS };
        expect(ids(await places.find({ loc: { $near: bounded } }).toArray())).toEqual(['north1', 'line', 'east2']);
        expect(ids(await places.find({ loc: { $nearSphere: bounded } }).toArray())).toEqual([
          'north1',
          'line',
          'east2',
        ]);
        expect(
          ids(
            await places
              .find({ kind: 'point', loc: { $near: { $geometry: ORIGIN } } })
              .limit(2)
              .toArray(),
          ),
        ).toEqual(['origin', 'north1']);
      },
    );

    test(
      "$geoNear adds distances in metres on mongod's sphere, with " + 'query, key, distanceMultiplier and includeLocs',
      async () => {
        const all = await places
          .aggregate([{ $geoNear: { near: ORIGIN, distanceField: 'dist', key: 'loc' } }])
          .toArray();
        expect(ids(all)).toEqual(['origin', 'north1', 'line', 'east2', 'square', 'far']);
        const expected = [0, 1 * DEGREE, 1.5 * DEGREE, 2 * DEGREE, 2.5 * DEGREE, angleBetween([0, 0], [10, 10])].map(
          (angle) => angle * RADIUS,
        );
        all.forEach((doc, i) => expect(doc.dist).toBeCloseTo(expected[i], 3));
        // One degree of arc on a 6378.1 km sphere.
        expect(all[1].dist).toBeCloseTo(111318.845, 3);

        const km = await places
          .aggregate([
            {
              $geoNear: {
                near: { type: 'Point', coordinates: [2, 0.5] },
                distanceField: 'info.km',
                query: { kind: 'point' },
                maxDistance: 1000 * 1000,
                distanceMultiplier: 0.001,
                includeLocs: 'info.where',
                spherical: true,
              },
            },
            { $project: { info: 1 } },
          ])
          .toArray();
        expect(ids(km)).toEqual(['east2', 'north1', 'origin']);
        expect(km[0].info.km).toBeCloseTo((0.5 * DEGREE * RADIUS) / 1000, 6);
        expect(km[0].info.where).toEqual({ type: 'Point', coordinates: [2, 0] });
        expect(km[1].info.km).toBeCloseTo((angleBetween([2, 0.5], [0, 1]) * RADIUS) / 1000, 6);
      },
    );

    test('$near is refused where it cannot order the results (inside $or, in a count)', async () => {
      const near = { loc: { $near: { $geometry: ORIGIN } } };
      expect(await failure(places.find({ $or: [near, { kind: 'area' }] }).toArray())).toEqual({
        code: 2,
        message: expect.stringContaining('$near'),
      });
      expect(await failure(places.countDocuments(near))).toEqual({
        code: 2,
        message: '$geoNear, $near, and $nearSphere are not allowed in this context',
      });
    });

    test('$geoNear must be the first stage', async () => {
      expect(
        await failure(places.aggregate([{ $match: {} }, { $geoNear: { near: ORIGIN, distanceField: 'd' } }]).toArray()),
      ).toEqual({
        code: 40602,
        message: '$geoNear is only valid as the first stage in a pipeline.',
      });
    });
  });

  test.each([
    ['without', false],
    ['with', true],
  ])(
    '$geoWithin a polygon, a multipolygon and a $centerSphere; $geoIntersects (%s a 2dsphere index)',
    async (_, indexed) => {
      if (indexed) await places.createIndex({ loc: '2dsphere' });
      const box = (x1: number, y1: number, x2: number, y2: number) => [
        [
          [x1, y1],
          [x2, y1],
          [x2, y2],
          [x1, y2],
          [x1, y1],
        ],
      ];
      const within = async (shape: Document) => ids(await places.find({ loc: { $geoWithin: shape } }).toArray()).sort();
      expect(await within({ $geometry: { type: 'Polygon', coordinates: box(-1, -1, 2.5, 1.5) } })).toEqual([
        'east2',
        'line',
        'north1',
        'origin',
      ]);
      expect(
        await within({
          $geometry: { type: 'MultiPolygon', coordinates: [box(-0.5, -0.5, 0.5, 0.5), box(-4, -2, -2, 2)] },
        }),
      ).toEqual(['origin', 'square']);
      expect(await within({ $centerSphere: [[0, 0], 1.2 * DEGREE] })).toEqual(['north1', 'origin']);
      const later = await places
        .aggregate([
          { $addFields: { tagged: true } },
          { $match: { loc: { $geoWithin: { $centerSphere: [[0, 0], 1.2 * DEGREE] } } } },
        ])
        .toArray();
      expect(ids(later).sort()).toEqual(['north1', 'origin']);
      const intersecting = await places
        .find({ loc: { $geoIntersects: { $geometry: { type: 'Polygon', coordinates: box(1, -0.5, 2.5, 0.5) } } } })
        .toArray();
      expect(ids(intersecting).sort()).toEqual(['east2', 'line']);
    },
  );

  test('legacy pairs: $near with a 2d index measures flat units; $box, $polygon and $center', async () => {
    const grid = f.db.collection('grid');
    await grid.drop().catch(() => undefined);
    await grid.insertMany([
      { _id: 'a' as never, pos: [0, 0] },
      { _id: 'b' as never, pos: [3, 4] },
      { _id: 'c' as never, pos: { x: 1, y: 1 } },
      { _id: 'd' as never, pos: [-6, 0] },
    ]);
    await grid.createIndex({ pos: '2d' });
    await grid.createIndex({ pos: 1, _id: 1 });
    expect(ids(await grid.find({ pos: { $near: [0, 0], $maxDistance: 5 } }).toArray())).toEqual(['a', 'c', 'b']);
    const [nearest] = await grid.aggregate([{ $geoNear: { near: [3, 0], distanceField: 'd' } }]).toArray();
    expect(nearest).toEqual({ _id: 'c', pos: { x: 1, y: 1 }, d: Math.sqrt(5) });
    const within = async (shape: Document) => ids(await grid.find({ pos: { $geoWithin: shape } }).toArray()).sort();
    expect(
      await within({
        $box: [
          [0, 0],
          [3, 4],
        ],
      }),
    ).toEqual(['a', 'b', 'c']);
    expect(
      await within({
        $polygon: [
          [-1, -1],
          [2, -1],
          [2, 2],
          [-1, 0.5],
        ],
      }),
    ).toEqual(['a', 'c']);
    expect(await within({ $center: [[0, 0], 5] })).toEqual(['a', 'b', 'c']);
  });
});
