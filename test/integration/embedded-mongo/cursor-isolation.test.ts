import type { Collection, Document } from 'mongodb';
import { startFixture, stopFixture, type Fixture } from './embedded-mongo-fixture';

/**
 * Cursors read lazily, batch by batch. Inside a transaction every batch still comes from the
 * transaction's snapshot; outside one a cursor sees writes made between its batches, as mongod's do.
 */
describe('embedded mongo: what a lazy cursor sees across its batches', () => {
  let f: Fixture;
  let items: Collection<Document>;
  beforeEach(async () => {
    f = await startFixture();
    items = f.db.collection('items');
    await items.insertMany(Array.from({ length: 20 }, (_, i) => ({ _id: i as never, n: i, v: 0 })));
    await items.createIndex({ n: 1 });
  });
  afterEach(() => stopFixture(f));

  test('a cursor opened in a transaction reads its snapshot in every getMore', async () => {
    const session = f.client.startSession();
    try {
      session.startTransaction();
      const cursor = items.find({}, { session, batchSize: 5, sort: { n: 1 } });
      const seen: Document[] = [];
      for (let i = 0; i < 5; i++) seen.push((await cursor.next())!);
      // Another client changes and adds documents the cursor has not reached yet.
      await items.updateMany({ _id: { $gte: 10 } as never }, { $set: { v: 1 } });
      await items.insertOne({ _id: 100 as never, v: 1 });
      for await (const doc of cursor) seen.push(doc);
      expect(seen.map((doc) => doc._id)).toEqual(Array.from({ length: 20 }, (_, i) => i));
      expect(seen.every((doc) => doc.v === 0)).toBe(true);
      await session.commitTransaction();
    } finally {
      await session.endSession();
    }
  });

  test(
    'outside a transaction the next batches show the newer versions, ' + 'and an index walk does not repeat or skip',
    async () => {
      const cursor = items.find({ n: { $gte: 0 } }, { batchSize: 5, sort: { n: 1 } });
      const seen: Document[] = [];
      for (let i = 0; i < 5; i++) seen.push((await cursor.next())!);
      await items.updateOne({ _id: 12 as never }, { $set: { label: 'changed' } });
      await items.deleteOne({ _id: 15 as never });
      await items.updateOne({ _id: 2 as never }, { $set: { label: 'too late' } });
      for await (const doc of cursor) seen.push(doc);
      expect(seen.map((doc) => doc._id)).toEqual(Array.from({ length: 20 }, (_, i) => i).filter((id) => id !== 15));
      expect(seen.find((doc) => doc._id === 12)?.label).toBe('changed');
      expect(seen.find((doc) => doc._id === 2)?.label).toBeUndefined();
    },
  );
});
