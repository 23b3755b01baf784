import { MongoBulkWriteError, MongoServerError, type Collection } from 'mongodb';
import { startFixture, stopFixture, type Fixture } from './embedded-mongo-fixture';

describe('embedded mongo: unique indexes', () => {
  let f: Fixture;
  let users: Collection;
  beforeAll(async () => {
    f = await startFixture();
  });
  afterAll(() => stopFixture(f));
  beforeEach(async () => {
    users = f.db.collection('users');
    await users.drop().catch(() => undefined);
    await users.createIndex({ email: 1 }, { unique: true });
    await users.insertOne({ _id: 1 as never, email: 'a' });
  });

  test('insertOne: E11000 with keyPattern, keyValue and the server wording', async () => {
    const error = await users.insertOne({ email: 'a' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MongoServerError);
    expect(error).toMatchObject({ code: 11000, keyPattern: { email: 1 }, keyValue: { email: 'a' } });
    expect((error as Error).message).toBe(
      'E11000 duplicate key error collection: embedded_test.users index: email_1 dup key: { email: "a" }',
    );
  });

  test('duplicate _id is refused by the _id index', async () => {
    await expect(users.insertOne({ _id: 1 as never, email: 'b' })).rejects.toMatchObject({
      code: 11000,
      keyPattern: { _id: 1 },
    });
  });

  test('ordered insertMany stops at the first duplicate', async () => {
    const error = (await users
      .insertMany([{ email: 'b' }, { email: 'a' }, { email: 'c' }])
      .catch((e: unknown) => e)) as MongoBulkWriteError;
    expect(error).toBeInstanceOf(MongoBulkWriteError);
    expect(error.result.insertedCount).toBe(1);
    expect(error.writeErrors).toMatchObject([{ index: 1, code: 11000 }]);
    expect(await users.countDocuments()).toBe(2);
  });

  test('unordered insertMany continues past duplicates', async () => {
    const error = (await users
      .insertMany([{ email: 'a' }, { email: 'b' }, { email: 'b' }, { email: 'c' }], { ordered: false })
      .catch((e: unknown) => e)) as MongoBulkWriteError;
    expect(error.result.insertedCount).toBe(2);
    const indexes = ([] as Array<{ index: number }>).concat(error.writeErrors as never).map((e) => e.index);
    expect(indexes).toEqual([0, 2]);
    expect(await users.countDocuments()).toBe(3);
  });

  test('updateOne with upsert and plain updates are checked', async () => {
    await users.insertOne({ email: 'b' });
    await expect(users.updateOne({ email: 'zz' }, { $set: { email: 'a' } }, { upsert: true })).rejects.toMatchObject({
      code: 11000,
      keyValue: { email: 'a' },
    });
    await expect(users.updateOne({ email: 'b' }, { $set: { email: 'a' } })).rejects.toMatchObject({ code: 11000 });
    expect(await users.countDocuments()).toBe(2);
  });

  test('findOneAndUpdate reports a top-level DuplicateKey error', async () => {
    await users.insertOne({ email: 'b' });
    const error = await users.findOneAndUpdate({ email: 'b' }, { $set: { email: 'a' } }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 11000,
      codeName: 'DuplicateKey',
      keyPattern: { email: 1 },
      keyValue: { email: 'a' },
    });
  });

  test('compound unique indexes compare the whole key; creating one over duplicates fails', async () => {
    const pairs = f.db.collection('pairs');
    await pairs.drop().catch(() => undefined);
    await pairs.createIndex({ a: 1, b: 1 }, { unique: true, name: 'pair' });
    await pairs.insertMany([
      { a: 1, b: 1 },
      { a: 1, b: 2 },
    ]);
    await expect(pairs.insertOne({ a: 1, b: 2 })).rejects.toMatchObject({
      code: 11000,
      keyPattern: { a: 1, b: 1 },
      keyValue: { a: 1, b: 2 },
    });
    await pairs.insertOne({ c: 1 });
    await expect(pairs.insertOne({ c: 2 })).rejects.toMatchObject({ code: 11000, keyValue: { a: null, b: null } });
    await expect(pairs.createIndex({ a: 1 }, { unique: true })).rejects.toMatchObject({ code: 11000 });
  });

  test('a freed key can be reused after delete and update', async () => {
    await users.updateOne({ email: 'a' }, { $set: { email: 'moved' } });
    await users.insertOne({ email: 'a' });
    await users.deleteOne({ email: 'moved' });
    await users.insertOne({ email: 'moved' });
    expect(await users.countDocuments()).toBe(2);
  });
});
