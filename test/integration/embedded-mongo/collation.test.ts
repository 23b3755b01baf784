import { MongoServerError, type CollationOptions, type Collection } from 'mongodb';
import { startFixture, stopFixture, type Fixture } from './embedded-mongo-fixture';

const caseInsensitive = { locale: 'en_US', strength: 2 };

describe('embedded mongo: collation', () => {
  let f: Fixture;
  let names: Collection;
  beforeAll(async () => {
    f = await startFixture();
  });
  afterAll(() => stopFixture(f));
  beforeEach(async () => {
    names = f.db.collection('names');
    await names.drop().catch(() => undefined);
    await names.insertMany([
      { _id: 1 as never, name: 'alice', file: 'file10' },
      { _id: 2 as never, name: 'Bob', file: 'file9' },
      { _id: 3 as never, name: 'carol', file: 'file100' },
      { _id: 4 as never, name: 'ALICE', file: 'file1' },
      { _id: 5 as never, name: 'Émile', file: 'file2' },
    ]);
  });

  test('equality and ranges honour strength', async () => {
    const ids = async (filter: object, collation?: CollationOptions) =>
      (await names.find(filter, { collation }).toArray()).map((doc) => doc._id);
    expect(await ids({ name: 'ALICE' })).toEqual([4]);
    expect(await ids({ name: 'ALICE' }, caseInsensitive)).toEqual([1, 4]);
    expect(await ids({ name: 'emile' }, caseInsensitive)).toEqual([]);
    expect(await ids({ name: 'emile' }, { locale: 'fr', strength: 1 })).toEqual([5]);
    expect(await ids({ name: { $in: ['BOB', 'Carol'] } }, caseInsensitive)).toEqual([2, 3]);
    expect(await ids({ name: { $gt: 'B', $lt: 'C' } }, caseInsensitive)).toEqual([2]);
  });

  test('sort is case-insensitive, accent-aware and numeric when asked', async () => {
    const sorted = await names.find({}, { collation: caseInsensitive, sort: { name: 1, _id: 1 } }).toArray();
    expect(sorted.map((doc) => doc.name)).toEqual(['alice', 'ALICE', 'Bob', 'carol', 'Émile']);
    const numeric = await names
      .find({}, { collation: { locale: 'en', numericOrdering: true }, sort: { file: 1 } })
      .toArray();
    expect(numeric.map((doc) => doc.file)).toEqual(['file1', 'file2', 'file9', 'file10', 'file100']);
    expect(
      await names.countDocuments({ file: { $gt: 'file9' } }, { collation: { locale: 'en', numericOrdering: true } }),
    ).toBe(2);
  });

  test('count, distinct, update and delete use the collation', async () => {
    expect(await names.countDocuments({ name: 'Alice' }, { collation: caseInsensitive })).toBe(2);
    expect((await names.distinct('name', {}, { collation: caseInsensitive })).length).toBe(4);
    const updated = await names.updateMany({ name: 'alice' }, { $set: { seen: true } }, { collation: caseInsensitive });
    expect(updated.modifiedCount).toBe(2);
    const deleted = await names.deleteMany({ name: 'BOB' }, { collation: caseInsensitive });
    expect(deleted.deletedCount).toBe(1);
    const grouped = await names
      .aggregate([{ $group: { _id: '$name', n: { $sum: 1 } } }, { $sort: { n: -1 } }], { collation: caseInsensitive })
      .toArray();
    expect(grouped[0].n).toBe(2);
  });

  test('a unique index with a strength-2 collation refuses A vs a, and serves matching queries', async () => {
    const users = f.db.collection('collated_users');
    await users.drop().catch(() => undefined);
    await users.createIndex({ login: 1 }, { unique: true, collation: caseInsensitive });
    await users.insertOne({ login: 'Ann' });
    const error = await users.insertOne({ login: 'ann' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MongoServerError);
    expect(error).toMatchObject({ code: 11000 });
    await users.insertOne({ login: 'Anne' });
    const explain = await users.find({ login: 'ANN' }, { collation: caseInsensitive }).explain('executionStats');
    expect(explain.queryPlanner.winningPlan.inputStage).toMatchObject({ stage: 'IXSCAN', indexName: 'login_1' });
    expect(
      (await users.find({ login: 'ANN' }, { collation: caseInsensitive }).toArray()).map((doc) => doc.login),
    ).toEqual(['Ann']);
    // Without the matching collation the index cannot answer string bounds.
    const plain = await users.find({ login: 'Ann' }).explain('executionStats');
    expect(plain.queryPlanner.winningPlan.stage).toBe('COLLSCAN');
  });

  test('an unknown locale is refused', async () => {
    await expect(names.find({}, { collation: { locale: 'xx_NOPE_123456789' } }).toArray()).rejects.toMatchObject({
      code: 2,
    });
  });
});
