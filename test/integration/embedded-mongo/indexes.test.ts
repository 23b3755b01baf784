import { MongoServerError, type Collection, type Document } from 'mongodb';
import { startFixture, stopFixture, type Fixture } from './embedded-mongo-fixture';

/** The IXSCAN stage of a winning plan (under FETCH), or the plan itself. */
function scanStage(explain: Document): Document {
  const plan = explain.queryPlanner.winningPlan as Document;
  return (plan.inputStage as Document | undefined) ?? plan;
}

describe('embedded mongo: secondary indexes', () => {
  let f: Fixture;
  let people: Collection;
  beforeAll(async () => {
    f = await startFixture();
  });
  afterAll(() => stopFixture(f));
  beforeEach(async () => {
    people = f.db.collection('people');
    await people.drop().catch(() => undefined);
    await people.insertMany(
      Array.from({ length: 1000 }, (_, i) => ({
        _id: i as never,
        email: `user${i}@x.io`,
        age: i % 100,
        city: ['Paris', 'Oslo', 'Rome'][i % 3],
        tags: [`t${i % 7}`, `t${i % 5}`],
      })),
    );
  });

  test('an indexed equality reads one key and one document instead of scanning', async () => {
    const before = await people.find({ email: 'user500@x.io' }).explain('executionStats');
    expect(before.queryPlanner.winningPlan.stage).toBe('COLLSCAN');
    expect(before.executionStats.totalDocsExamined).toBe(1000);

    await people.createIndex({ email: 1 });
    const after = await people.find({ email: 'user500@x.io' }).explain('executionStats');
    expect(scanStage(after)).toMatchObject({ stage: 'IXSCAN', indexName: 'email_1', keyPattern: { email: 1 } });
    expect(after.executionStats).toMatchObject({ nReturned: 1, totalKeysExamined: 1, totalDocsExamined: 1 });
    expect(await people.findOne({ email: 'user500@x.io' })).toMatchObject({ _id: 500 });
  });

  test('range predicates read only the keys in range', async () => {
    await people.createIndex({ age: 1 });
    const filter = { age: { $gte: 10, $lt: 13 } };
    const explain = await people.find(filter).explain('executionStats');
    expect(scanStage(explain).stage).toBe('IXSCAN');
    expect(explain.executionStats.totalDocsExamined).toBe(30);
    expect(await people.countDocuments(filter)).toBe(30);
    // Type bracketing: a numeric range never returns strings.
    await people.insertOne({ _id: 'str' as never, age: 'eleven' });
    expect(await people.countDocuments({ age: { $gt: 98 } })).toBe(10);
  });

  test('a compound index serves its prefix, not its second field alone', async () => {
    await people.createIndex({ city: 1, age: -1 });
    const prefix = await people.find({ city: 'Oslo' }).explain('executionStats');
    expect(scanStage(prefix)).toMatchObject({ stage: 'IXSCAN', indexName: 'city_1_age_-1' });
    expect(prefix.executionStats.totalDocsExamined).toBe(333);
    const both = await people.find({ city: 'Oslo', age: { $lte: 10 } }).explain('executionStats');
    expect(both.executionStats.totalDocsExamined).toBe(
      await people.countDocuments({ city: 'Oslo', age: { $lte: 10 } }),
    );
    expect(both.executionStats.totalDocsExamined).toBeLessThan(50);
    const second = await people.find({ age: 5 }).explain('executionStats');
    expect(second.queryPlanner.winningPlan.stage).toBe('COLLSCAN');
  });

  test('a sort on an indexed field walks the index and stops at the limit', async () => {
    await people.createIndex({ email: 1 });
    const cursor = () =>
      people
        .find({}, { projection: { email: 1 } })
        .sort({ email: -1 })
        .limit(3);
    expect((await cursor().toArray()).map((doc) => doc.email)).toEqual(['user9@x.io', 'user99@x.io', 'user999@x.io']);
    const explain = await cursor().explain('executionStats');
    expect(scanStage(explain)).toMatchObject({ stage: 'IXSCAN', direction: 'backward' });
    expect(explain.executionStats.totalDocsExamined).toBe(3);
    // Equality prefix + sort on the next field of a compound index.
    await people.createIndex({ city: 1, age: 1 });
    const ages = (await people.find({ city: 'Rome' }).sort({ age: 1 }).limit(4).toArray()).map((doc) => doc.age);
    expect(ages).toEqual([0, 0, 0, 1]);
  });

  test('hint by name or key pattern; an unknown hint is BadValue', async () => {
    await people.createIndex({ age: 1 }, { name: 'by_age' });
    const byName = await people.find({ age: 3, city: 'Rome' }).hint('by_age').explain('executionStats');
    expect(scanStage(byName).indexName).toBe('by_age');
    const byKey = await people.find({}).hint({ age: 1 }).limit(2).toArray();
    expect(byKey.map((doc) => doc.age)).toEqual([0, 0]);
    expect(await people.countDocuments({ age: 3 }, { hint: 'by_age' })).toBe(10);
    const natural = await people.find({ age: 3 }).hint({ $natural: 1 }).explain('executionStats');
    expect(natural.queryPlanner.winningPlan.stage).toBe('COLLSCAN');
    const error = await people
      .find({ age: 3 })
      .hint('nope')
      .toArray()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MongoServerError);
    expect(error).toMatchObject({
      code: 2,
      codeName: 'BadValue',
      message: 'hint provided does not correspond to an existing index',
    });
  });

  test('indexes follow updates, deletes, findAndModify, upserts and array changes', async () => {
    await people.createIndex({ email: 1 }, { unique: true });
    await people.createIndex({ tags: 1 });
    await people.updateOne({ _id: 1 as never }, { $set: { email: 'renamed@x.io' } });
    expect(await people.findOne({ email: 'user1@x.io' })).toBeNull();
    expect(await people.findOne({ email: 'renamed@x.io' })).toMatchObject({ _id: 1 });
    await people.deleteOne({ email: 'user2@x.io' });
    expect(await people.countDocuments({ email: 'user2@x.io' })).toBe(0);
    await people.findOneAndUpdate({ email: 'user3@x.io' }, { $set: { email: 'three@x.io' } });
    expect(await people.findOne({ email: 'three@x.io' }, { projection: { _id: 1 } })).toEqual({ _id: 3 });
    await people.updateOne({ email: 'new@x.io' }, { $set: { tags: ['fresh'] } }, { upsert: true });
    expect(await people.findOne({ email: 'new@x.io' })).toMatchObject({ tags: ['fresh'] });
    expect(await people.find({ tags: 'fresh' }).toArray()).toHaveLength(1);
    // Multikey: each element is a key; replacing the array moves them.
    expect(await people.countDocuments({ tags: 't3' })).toBe(143 + 200 - 29);
    await people.updateMany({ tags: 't3' }, { $set: { tags: ['none'] } });
    expect(await people.countDocuments({ tags: 't3' })).toBe(0);
    expect(await people.countDocuments({ tags: { $in: ['none', 'fresh'] } })).toBe(315);
    const explain = await people.find({ tags: 'none' }).explain('executionStats');
    expect(scanStage(explain)).toMatchObject({ stage: 'IXSCAN', isMultiKey: true });
    await people.deleteMany({ tags: 'none' });
    expect(await people.countDocuments({ tags: 'none' })).toBe(0);
    expect(await people.countDocuments()).toBe(1000 - 1 - 314 + 1);
  });

  test('dropping an index brings back the collection scan; listIndexes shows options', async () => {
    await people.createIndex({ age: 1 }, { sparse: true });
    expect((await people.listIndexes().toArray()).map((spec) => spec.name)).toEqual(['_id_', 'age_1']);
    await people.dropIndex('age_1');
    const explain = await people.find({ age: 3 }).explain('executionStats');
    expect(explain.queryPlanner.winningPlan.stage).toBe('COLLSCAN');
  });
});

describe('embedded mongo: index lookups do not degrade with collection size', () => {
  let f: Fixture;
  beforeAll(async () => {
    f = await startFixture();
  });
  afterAll(() => stopFixture(f));

  async function lookupMillis(size: number): Promise<number> {
    const collection = f.db.collection(`big${size}`);
    for (let start = 0; start < size; start += 10_000) {
      await collection.insertMany(
        Array.from({ length: 10_000 }, (_, i) => ({ n: start + i, code: `c${start + i}`, group: (start + i) % 10 })),
      );
    }
    await collection.createIndex({ code: 1 });
    for (let i = 0; i < 50; i++) await collection.findOne({ code: `c${i}` });
    const started = performance.now();
    for (let i = 0; i < 300; i++) await collection.findOne({ code: `c${(i * 7919) % size}` });
    return performance.now() - started;
  }

  test('findOne by an indexed field at 100k costs about what it costs at 10k', async () => {
    const small = await lookupMillis(10_000);
    const large = await lookupMillis(100_000);
    expect(large).toBeLessThan(small * 3 + 50);
  }, 60_000);
});
