import { startFixture, stopFixture, type Fixture } from './embedded-mongo-fixture';

describe('embedded mongo: capped collections', () => {
  let fixture: Fixture;
  beforeAll(async () => {
    fixture = await startFixture();
  });
  afterAll(() => stopFixture(fixture));

  test(
    'mongod keeps at most `max` documents, removing the oldest ' + 'first (insertion order is natural order)',
    async () => {
      const log = await fixture.db.createCollection('log', { capped: true, size: 100_000, max: 3 });
      for (let n = 1; n <= 5; n++) await log.insertOne({ n });
      await log.insertMany([{ n: 6 }, { n: 7 }]);
      expect((await log.find({}, { projection: { _id: 0 } }).toArray()).map((doc) => doc.n)).toEqual([5, 6, 7]);
      expect(await log.countDocuments()).toBe(3);
      expect(await log.estimatedDocumentCount()).toBe(3);
    },
  );

  test('mongod bounds the collection to `size` bytes (raised to at least 4096)', async () => {
    const bytes = await fixture.db.createCollection('bytes', { capped: true, size: 1000 });
    const padding = 'x'.repeat(1000);
    for (let n = 1; n <= 10; n++) await bytes.insertOne({ n, padding });
    const kept = (await bytes.find().toArray()).map((doc) => doc.n);
    // Each document is a little over 1000 bytes: four of them would pass 4096.
    expect(kept).toEqual([8, 9, 10]);
  });

  test(
    'mongod refuses writes to a capped collection inside a transaction ' +
      'with code 263 (OperationNotSupportedInTransaction)',
    async () => {
      const session = fixture.client.startSession();
      try {
        session.startTransaction();
        await expect(fixture.db.collection('log').insertOne({ n: 99 }, { session })).rejects.toMatchObject({
          code: 263,
          message:
            "Collection 'embedded_test.log' is a capped collection. Writes in " +
            'transactions are not allowed on capped collections.',
        });
        await session.abortTransaction().catch(() => undefined);
      } finally {
        await session.endSession();
      }
      expect(await fixture.db.collection('log').countDocuments({ n: 99 })).toBe(0);
    },
  );

  test('mongod refuses capped without size with code 72 (InvalidOptions)', async () => {
    await expect(fixture.db.createCollection('nosize', { capped: true })).rejects.toMatchObject({
      code: 72,
      codeName: 'InvalidOptions',
      message: "the 'size' field is required when 'capped' is true",
    });
  });

  test(
    'mongod 7 allows deletes and size-changing updates on capped ' +
      'collections; isCapped() and listCollections report it',
    async () => {
      const events = await fixture.db.createCollection('events', { capped: true, size: 8192, max: 10 });
      await events.insertMany([{ n: 1 }, { n: 2 }, { n: 3 }]);
      expect((await events.deleteOne({ n: 2 })).deletedCount).toBe(1);
      await events.updateOne({ n: 1 }, { $set: { note: 'a much longer value than before' } });
      expect((await events.find().toArray()).map((doc) => doc.n)).toEqual([1, 3]);
      expect(await events.isCapped()).toBe(true);
      expect(await fixture.db.collection('log').isCapped()).toBe(true);
      await fixture.db.createCollection('plain');
      expect(await fixture.db.collection('plain').isCapped()).toBe(false);
      const [info] = await fixture.db.listCollections({ name: 'events' }, { nameOnly: false }).toArray();
      expect(info.options).toMatchObject({ capped: true, size: 8192, max: 10 });
    },
  );
});
