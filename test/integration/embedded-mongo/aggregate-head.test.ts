import { Long, type Collection } from 'mongodb';
import { startFixture, stopFixture, type Fixture } from './embedded-mongo-fixture';

/** A pipeline's leading `$match $sort $skip $limit $project` runs as the find command would. */
describe('embedded mongo: aggregate head through the find path', () => {
  let f: Fixture;
  let items: Collection;
  beforeAll(async () => {
    f = await startFixture();
    items = f.db.collection('items');
    await items.insertMany(
      Array.from({ length: 500 }, (_, i) => ({
        _id: i as never,
        bucket: i % 5,
        rank: (i * 7) % 500,
        big: Long.fromNumber(i),
      })),
    );
    await items.createIndex({ bucket: 1, rank: -1 });
  });
  afterAll(() => stopFixture(f));

  test('returns what find returns, numeric types included', async () => {
    const filter = { bucket: 3 };
    const found = await items
      .find(filter, { projection: { rank: 1, big: 1 } })
      .sort({ rank: -1 })
      .skip(4)
      .limit(6)
      .toArray();
    const aggregated = await items
      .aggregate(
        [{ $match: filter }, { $sort: { rank: -1 } }, { $skip: 4 }, { $limit: 6 }, { $project: { rank: 1, big: 1 } }],
        { promoteLongs: false },
      )
      .toArray();
    expect(aggregated).toEqual(
      await items
        .find(filter, { projection: { rank: 1, big: 1 }, promoteLongs: false })
        .sort({ rank: -1 })
        .skip(4)
        .limit(6)
        .toArray(),
    );
    expect(aggregated.map((doc) => doc._id)).toEqual(found.map((doc) => doc._id));
    expect(aggregated[0].big).toBeInstanceOf(Long);
  });

  test('an index that gives the order stops the scan after skip + limit', async () => {
    const explain = await items
      .aggregate([{ $match: { bucket: 2 } }, { $sort: { rank: -1 } }, { $skip: 2 }, { $limit: 3 }])
      .explain('executionStats');
    expect(explain.executionStats).toMatchObject({ nReturned: 3, totalDocsExamined: 5 });
  });

  test('later stages still run on the folded head, and countDocuments counts from the index', async () => {
    const grouped = await items
      .aggregate([{ $match: { bucket: 1 } }, { $limit: 4 }, { $group: { _id: null, total: { $sum: '$rank' } } }])
      .toArray();
    const firstFour = await items.find({ bucket: 1 }).limit(4).toArray();
    expect(grouped).toEqual([{ _id: null, total: firstFour.reduce((sum, doc) => sum + (doc.rank as number), 0) }]);
    expect(await items.countDocuments({ bucket: 1 })).toBe(100);
    expect(await items.countDocuments({ bucket: 1 }, { skip: 95, limit: 10 })).toBe(5);
    expect(await items.countDocuments({ bucket: 9 })).toBe(0);
  });
});
