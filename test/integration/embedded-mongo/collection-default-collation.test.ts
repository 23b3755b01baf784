import { startFixture, stopFixture, type Fixture } from './embedded-mongo-fixture';

describe('embedded mongo: a collection default collation (createCollection with collation)', () => {
  let fixture: Fixture;
  beforeAll(async () => {
    fixture = await startFixture();
    const names = await fixture.db.createCollection('names', { collation: { locale: 'en', strength: 2 } });
    await names.insertMany([{ name: 'apple' }, { name: 'Banana' }, { name: 'APPLE' }, { name: 'cherry' }]);
  });
  afterAll(() => stopFixture(fixture));

  test('mongod applies it to queries and sorts that give no collation of their own', async () => {
    const names = fixture.db.collection('names');
    expect(await names.countDocuments({ name: 'Apple' })).toBe(2);
    expect(
      (
        await names
          .find({}, { projection: { _id: 0 } })
          .sort({ name: 1 })
          .toArray()
      ).map((doc) => doc.name.toLowerCase()),
    ).toEqual(['apple', 'apple', 'banana', 'cherry']);
  });

  test(
    'mongod applies it to distinct, count and aggregate, and an ' + 'explicit simple collation overrides it',
    async () => {
      const names = fixture.db.collection('names');
      expect(await names.distinct('name', { name: { $in: ['apple', 'banana'] } })).toHaveLength(2);
      expect(await names.aggregate([{ $match: { name: 'BANANA' } }, { $count: 'n' }]).toArray()).toEqual([{ n: 1 }]);
      expect(await names.countDocuments({ name: 'Apple' }, { collation: { locale: 'simple' } })).toBe(0);
    },
  );

  test('mongod applies it to updates and deletes that give no collation', async () => {
    const names = fixture.db.collection('names');
    expect((await names.updateMany({ name: 'CHERRY' }, { $set: { fruit: true } })).modifiedCount).toBe(1);
    await fixture.db.createCollection('scratch', { collation: { locale: 'en', strength: 2 } });
    await fixture.db.collection('scratch').insertMany([{ k: 'x' }, { k: 'X' }]);
    expect((await fixture.db.collection('scratch').deleteMany({ k: 'x' })).deletedCount).toBe(2);
  });

  test(
    'mongod gives an index created without a collation the collection default ' +
      '(listIndexes shows it); a unique index then folds case',
    async () => {
      const users = await fixture.db.createCollection('collatedUsers', { collation: { locale: 'en', strength: 2 } });
      await users.createIndex({ email: 1 }, { unique: true });
      await users.createIndex({ code: 1 }, { collation: { locale: 'simple' } });
      const indexes = await users.listIndexes().toArray();
      expect(indexes.find((index) => index.name === 'email_1')?.collation).toMatchObject({ locale: 'en', strength: 2 });
      expect(indexes.find((index) => index.name === 'code_1')).not.toHaveProperty('collation');
      await users.insertOne({ email: 'Ann@example.com' });
      await expect(users.insertOne({ email: 'ann@EXAMPLE.com' })).rejects.toMatchObject({ code: 11000 });
    },
  );
});
