import type { ChangeStream, ChangeStreamDocument, Collection, Document } from 'mongodb';
import { startFixture, stopFixture, type Fixture } from './embedded-mongo-fixture';

/** A short awaitData wait: opening a stream with tryNext() then costs 100 ms instead of mongod's default 1 s. */
const QUICK = { maxAwaitTimeMS: 100 };

/** The next `count` events of a stream (the getMore waits for them server-side). */
async function nextEvents(stream: ChangeStream<Document, ChangeStreamDocument>, count: number): Promise<Document[]> {
  const events: Document[] = [];
  while (events.length < count) events.push((await stream.next()) as Document);
  return events;
}

describe('embedded mongo change streams', () => {
  let f: Fixture;
  /** A collection whose documents have numeric `_id`s. */
  const keyed = (name: string): Collection<{ _id: number | string } & Document> => f.db.collection(name);
  beforeAll(async () => {
    f = await startFixture();
  });
  afterAll(async () => stopFixture(f));

  it(
    'collection.watch() reports insert, update (updatedFields, removedFields, ' +
      'truncatedArrays), replace and delete as mongod does',
    async () => {
      const coll = keyed('events');
      const stream = coll.watch([], QUICK);
      await stream.tryNext(); // the stream is open (its start is now)
      await coll.insertOne({ _id: 1, a: 1, b: 2, list: [1, 2, 3], nested: { x: 1 } });
      await coll.updateOne({ _id: 1 }, { $set: { a: 5, 'nested.y': 2 }, $unset: { b: '' }, $pop: { list: 1 } });
      await coll.replaceOne({ _id: 1 }, { c: 3 });
      await coll.deleteOne({ _id: 1 });
      const [insert, update, replace, remove] = await nextEvents(stream, 4);
      expect(insert).toMatchObject({
        operationType: 'insert',
        ns: { db: 'embedded_test', coll: 'events' },
        documentKey: { _id: 1 },
        fullDocument: { _id: 1, a: 1 },
      });
      expect(insert._id._data).toEqual(expect.any(String));
      expect(insert.clusterTime).toBeDefined();
      expect(insert.wallTime).toBeInstanceOf(Date);
      expect(update).toMatchObject({ operationType: 'update', documentKey: { _id: 1 } });
      expect(update.updateDescription).toEqual({
        updatedFields: { a: 5, 'nested.y': 2 },
        removedFields: ['b'],
        truncatedArrays: [{ field: 'list', newSize: 2 }],
      });
      expect(update.fullDocument).toBeUndefined();
      expect(replace).toMatchObject({ operationType: 'replace', fullDocument: { _id: 1, c: 3 } });
      expect(remove).toMatchObject({ operationType: 'delete', documentKey: { _id: 1 } });
      await stream.close();
    },
  );

  it(
    'a getMore with nothing new waits (awaitData, maxAwaitTimeMS) and returns as ' +
      'soon as a change commits, without blocking other clients',
    async () => {
      const coll = f.db.collection('waiting');
      const stream = coll.watch([], { maxAwaitTimeMS: 5000 });
      await stream.tryNext();
      const started = Date.now();
      const next = stream.next();
      await new Promise((resolve) => setTimeout(resolve, 100));
      await coll.insertOne({ late: true }); // served while the getMore waits
      expect(await next).toMatchObject({ operationType: 'insert', fullDocument: { late: true } });
      expect(Date.now() - started).toBeLessThan(2000);
      await stream.close();
    },
  );

  it('an empty getMore returns after maxAwaitTimeMS with a postBatchResumeToken', async () => {
    const stream = f.db.collection('quiet').watch([], { maxAwaitTimeMS: 200 });
    const started = Date.now();
    expect(await stream.tryNext()).toBeNull();
    expect(await stream.tryNext()).toBeNull();
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
    expect(stream.resumeToken).toEqual({ _data: expect.any(String) });
    await stream.close();
  });

  it(
    'db.watch() and client.watch() see other collections and databases; following stages ' +
      'filter and reshape (mongod allows $match/$project/$addFields)',
    async () => {
      const dbStream = f.db.watch(
        [{ $match: { operationType: 'insert' } }, { $project: { operationType: 1, ns: 1, 'fullDocument.v': 1 } }],
        QUICK,
      );
      const clientStream = f.client.watch([{ $match: { 'ns.db': 'other_db' } }, { $addFields: { seen: true } }], QUICK);
      await dbStream.tryNext();
      await clientStream.tryNext();
      await f.db.collection('one').insertOne({ v: 1, hidden: 1 });
      await f.db.collection('one').deleteMany({});
      await f.client.db('other_db').collection('two').insertOne({ v: 2 });
      const [fromDb] = await nextEvents(dbStream, 1);
      expect(fromDb).toEqual({
        _id: expect.any(Object),
        operationType: 'insert',
        ns: { db: 'embedded_test', coll: 'one' },
        fullDocument: { v: 1 },
      });
      const [fromClient] = await nextEvents(clientStream, 1);
      expect(fromClient).toMatchObject({ operationType: 'insert', ns: { db: 'other_db', coll: 'two' }, seen: true });
      await dbStream.close();
      await clientStream.close();
    },
  );

  it(
    'mongod refuses stages that may not follow $changeStream (code 20) and a ' +
      'pipeline that drops the resume token _id (code 280)',
    async () => {
      const grouped = f.db.collection('x').watch([{ $group: { _id: null } }], QUICK);
      await expect(grouped.tryNext()).rejects.toMatchObject({
        code: 20,
        message: '$group is not permitted in a $changeStream pipeline',
      });
      await grouped.close();
      const coll = f.db.collection('noid');
      const raw = await f.db.command({
        aggregate: 'noid',
        pipeline: [{ $changeStream: {} }, { $project: { _id: 0 } }],
        cursor: {},
      });
      await coll.insertOne({ a: 1 });
      await expect(f.db.command({ getMore: raw.cursor.id, collection: 'noid' })).rejects.toMatchObject({
        code: 280,
        codeName: 'ChangeStreamFatalError',
      });
    },
  );

  it(
    'drop and rename of the watched collection report drop / rename, then ' +
      'invalidate and close the stream (mongod invalidate events)',
    async () => {
      const dropped = f.db.collection('to_drop');
      await dropped.insertOne({ a: 1 });
      const dropStream = dropped.watch([], QUICK);
      await dropStream.tryNext();
      await dropped.drop();
      const [drop, invalidate] = await nextEvents(dropStream, 2);
      expect(drop).toMatchObject({ operationType: 'drop', ns: { db: 'embedded_test', coll: 'to_drop' } });
      expect(invalidate.operationType).toBe('invalidate');
      expect(dropStream.closed).toBe(true);

      const renamed = f.db.collection('to_rename');
      await renamed.insertOne({ a: 1 });
      const renameStream = renamed.watch([], QUICK);
      await renameStream.tryNext();
      await renamed.rename('renamed');
      const [rename, renameInvalidate] = await nextEvents(renameStream, 2);
      expect(rename).toMatchObject({
        operationType: 'rename',
        ns: { coll: 'to_rename' },
        to: { db: 'embedded_test', coll: 'renamed' },
      });
      expect(renameInvalidate.operationType).toBe('invalidate');
      expect(await f.db.collection('renamed').countDocuments()).toBe(1);
    },
  );

  it('dropDatabase reports each drop, then dropDatabase, then invalidate on a database stream', async () => {
    const db = f.client.db('doomed');
    await db.collection('a').insertOne({ a: 1 });
    const stream = db.watch([], QUICK);
    await stream.tryNext();
    await db.dropDatabase();
    const events = await nextEvents(stream, 3);
    expect(events.map((event) => event.operationType)).toEqual(['drop', 'dropDatabase', 'invalidate']);
    expect(events[1].ns).toEqual({ db: 'doomed' });
  });

  it(
    "fullDocument: 'updateLookup' returns the current document; 'whenAvailable' gives " +
      "null without pre/post images; 'required' fails with code 47",
    async () => {
      const coll = keyed('lookup');
      await coll.insertOne({ _id: 1, n: 0 });
      const lookup = coll.watch([], { ...QUICK, fullDocument: 'updateLookup' });
      const whenAvailable = coll.watch([], { ...QUICK, fullDocument: 'whenAvailable' });
      const required = coll.watch([], { ...QUICK, fullDocument: 'required' });
      await Promise.all([lookup.tryNext(), whenAvailable.tryNext(), required.tryNext()]);
      await coll.updateOne({ _id: 1 }, { $inc: { n: 1 } });
      await coll.updateOne({ _id: 1 }, { $inc: { n: 1 } });
      const [first] = await nextEvents(lookup, 1);
      expect(first.fullDocument).toEqual({ _id: 1, n: 2 }); // looked up now, not as of the change
      expect((await nextEvents(whenAvailable, 1))[0].fullDocument).toBeNull();
      await expect(required.next()).rejects.toMatchObject({ code: 47 });
      await Promise.all([lookup.close(), whenAvailable.close(), required.close()]);
    },
  );

  it(
    'with changeStreamPreAndPostImages enabled, fullDocumentBeforeChange and ' +
      'fullDocument whenAvailable carry the images (mongod pre-images)',
    async () => {
      await f.db.createCollection('imaged', { changeStreamPreAndPostImages: { enabled: true } });
      const coll = keyed('imaged');
      await coll.insertOne({ _id: 1, n: 0 });
      const stream = coll.watch([], { ...QUICK, fullDocument: 'required', fullDocumentBeforeChange: 'required' });
      await stream.tryNext();
      await coll.updateOne({ _id: 1 }, { $set: { n: 1 } });
      await coll.deleteOne({ _id: 1 });
      const [update, remove] = await nextEvents(stream, 2);
      expect(update).toMatchObject({ fullDocumentBeforeChange: { _id: 1, n: 0 }, fullDocument: { _id: 1, n: 1 } });
      expect(remove).toMatchObject({ operationType: 'delete', fullDocumentBeforeChange: { _id: 1, n: 1 } });
      await stream.close();
    },
  );

  it(
    'pre-images enabled later with collMod apply from then on ' + '(mongod records pre-images from the collMod on)',
    async () => {
      const coll = keyed('later_imaged');
      await coll.insertOne({ _id: 1, n: 0 });
      const stream = coll.watch([], { ...QUICK, fullDocumentBeforeChange: 'whenAvailable' });
      await stream.tryNext();
      await coll.updateOne({ _id: 1 }, { $set: { n: 1 } });
      await f.db.command({ collMod: 'later_imaged', changeStreamPreAndPostImages: { enabled: true } });
      await coll.updateOne({ _id: 1 }, { $set: { n: 2 } });
      const [before, after] = await nextEvents(stream, 2);
      expect(before.fullDocumentBeforeChange).toBeNull();
      expect(after.fullDocumentBeforeChange).toEqual({ _id: 1, n: 1 });
      await stream.close();
    },
  );

  it(
    'the writes of a transaction appear at commit, in order, with lsid ' +
      'and txnNumber; an aborted one never appears',
    async () => {
      const coll = keyed('txn');
      await coll.insertOne({ _id: 0 });
      const stream = coll.watch([], QUICK);
      await stream.tryNext();
      const session = f.client.startSession();
      try {
        session.startTransaction();
        await coll.insertOne({ _id: 'aborted' }, { session });
        await session.abortTransaction();
        session.startTransaction();
        await coll.insertOne({ _id: 1 }, { session });
        await coll.updateOne({ _id: 0 }, { $set: { t: 1 } }, { session });
        expect(await stream.tryNext()).toBeNull(); // nothing before the commit
        await session.commitTransaction();
      } finally {
        await session.endSession();
      }
      const [insert, update] = await nextEvents(stream, 2);
      expect(insert).toMatchObject({ operationType: 'insert', documentKey: { _id: 1 } });
      expect(update).toMatchObject({ operationType: 'update', documentKey: { _id: 0 } });
      expect(insert.lsid).toEqual(update.lsid);
      expect(insert.txnNumber).toEqual(update.txnNumber);
      expect(insert.clusterTime).toEqual(update.clusterTime); // one commit, one time
      await stream.close();
    },
  );
});
