import type { Collection, Document } from 'mongodb';
import { startFixture, stopFixture, type Fixture } from './embedded-mongo-fixture';

const keysOf = (doc: Document | null): string[] => Object.keys(doc ?? {});

/**
 * mongod returns projected fields in the stored document's order (`_id` first), whatever the
 * order of the projection; fields an inclusion projection computes (expressions, `$elemMatch`)
 * come after the copied ones, in the projection's order.
 */
describe('embedded mongo: projections keep the stored field order', () => {
  let f: Fixture;
  let docs: Collection;
  beforeAll(async () => {
    f = await startFixture();
    docs = f.db.collection('ordered');
    await docs.insertOne({
      _id: 1 as never,
      z: 1,
      b: { y: 1, x: 2, w: 3 },
      a: 3,
      games: [
        { game: 'abc', score: 8 },
        { game: 'xyz', score: 5 },
      ],
      list: [{ q: 1, c: 2, k: 3 }, 'scalar', { c: 4, q: 5 }],
    });
  });
  afterAll(() => stopFixture(f));

  test('find and findOne: included fields in document order, _id first', async () => {
    const [found] = await docs.find({}, { projection: { a: 1, z: 1 } }).toArray();
    expect(keysOf(found)).toEqual(['_id', 'z', 'a']);
    expect(keysOf(await docs.findOne({ _id: 1 as never }, { projection: { a: 1, z: 1, _id: 1 } }))).toEqual([
      '_id',
      'z',
      'a',
    ]);
    expect(keysOf(await docs.findOne({}, { projection: { a: 1, z: 1, _id: 0 } }))).toEqual(['z', 'a']);
  });

  test('nested fields and arrays of sub-documents keep their order too', async () => {
    const found = await docs.findOne({}, { projection: { 'b.w': 1, 'b.y': 1, 'list.q': 1, 'list.c': 1 } });
    expect(keysOf(found)).toEqual(['_id', 'b', 'list']);
    expect(keysOf(found!.b)).toEqual(['y', 'w']);
    expect(found!.list).toEqual([
      { q: 1, c: 2 },
      { c: 4, q: 5 },
    ]);
    expect((found!.list as Document[]).map(keysOf)).toEqual([
      ['q', 'c'],
      ['c', 'q'],
    ]);
    const whole = await docs.findOne({}, { projection: { list: 1, b: 1 } });
    expect(keysOf(whole!.b)).toEqual(['y', 'x', 'w']);
    expect(whole!.list).toEqual([{ q: 1, c: 2, k: 3 }, 'scalar', { c: 4, q: 5 }]);
    expect((whole!.list as Document[]).filter((item) => typeof item === 'object').map(keysOf)).toEqual([
      ['q', 'c', 'k'],
      ['c', 'q'],
    ]);
  });

  test('an exclusion projection keeps the document as stored, less the excluded fields', async () => {
    expect(keysOf(await docs.findOne({}, { projection: { games: 0, list: 0 } }))).toEqual(['_id', 'z', 'b', 'a']);
  });

  test('$elemMatch and computed fields come after the included fields, as mongod documents it', async () => {
    const found = await docs.findOne({}, { projection: { games: { $elemMatch: { score: { $gt: 5 } } }, z: 1, a: 1 } });
    expect(found).toEqual({ _id: 1, z: 1, a: 3, games: [{ game: 'abc', score: 8 }] });
    expect(keysOf(found)).toEqual(['_id', 'z', 'a', 'games']);
    expect(
      keysOf(await docs.findOne({}, { projection: { c2: { $literal: 2 }, a: 1, c1: { $literal: 1 }, z: 1 } })),
    ).toEqual(['_id', 'z', 'a', 'c2', 'c1']);
  });

  test('$project in aggregate, folded into the find or run after other stages', async () => {
    const folded = await docs.aggregate([{ $match: {} }, { $project: { a: 1, z: 1 } }]).toArray();
    expect(keysOf(folded[0])).toEqual(['_id', 'z', 'a']);
    const afterStages = await docs
      .aggregate([{ $addFields: { extra: 1 } }, { $project: { extra: 1, a: 1, 'b.x': 1, 'b.y': 1, z: 1 } }])
      .toArray();
    expect(keysOf(afterStages[0])).toEqual(['_id', 'z', 'b', 'a', 'extra']);
    expect(keysOf(afterStages[0].b)).toEqual(['y', 'x']);
    const computed = await docs.aggregate([{ $project: { total: { $add: ['$a', '$z'] }, a: 1, z: 1 } }]).toArray();
    expect(computed).toEqual([{ _id: 1, z: 1, a: 3, total: 4 }]);
    expect(keysOf(computed[0])).toEqual(['_id', 'z', 'a', 'total']);
    const faceted = await docs.aggregate([{ $facet: { only: [{ $project: { a: 1, z: 1, _id: 0 } }] } }]).toArray();
    expect(keysOf(faceted[0].only[0])).toEqual(['z', 'a']);
  });
});
