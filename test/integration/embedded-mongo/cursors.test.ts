import type { CommandStartedEvent, Document } from 'mongodb';
import { startFixture, stopFixture, type Fixture } from './embedded-mongo-fixture';

describe('embedded mongo: cursors', () => {
  let f: Fixture;
  const started: CommandStartedEvent[] = [];
  beforeAll(async () => {
    f = await startFixture({}, { monitorCommands: true });
    f.client.on('commandStarted', (event) => started.push(event));
    await f.db.collection('many').insertMany(Array.from({ length: 250 }, (_, i) => ({ i })));
  });
  afterAll(() => stopFixture(f));
  beforeEach(() => {
    started.length = 0;
  });

  const getMores = (): CommandStartedEvent[] => started.filter((event) => event.commandName === 'getMore');

  test('batchSize splits the results over several getMore calls, in order', async () => {
    const docs = await f.db
      .collection('many')
      .find({}, { batchSize: 40, sort: { i: 1 } })
      .toArray();
    expect(docs.map((d) => d.i)).toEqual(Array.from({ length: 250 }, (_, i) => i));
    expect(getMores()).toHaveLength(6);
  });

  test('the default first batch is 101 documents and aggregate cursors page too', async () => {
    const cursor = f.db.collection('many').aggregate([{ $match: { i: { $gte: 0 } } }], { batchSize: 100 });
    let count = 0;
    for await (const doc of cursor) {
      expect(doc.i).toBe(count);
      count++;
    }
    expect(count).toBe(250);
    expect(getMores()).toHaveLength(2);
  });

  test('closing a cursor early sends killCursors and the cursor is gone', async () => {
    const cursor = f.db.collection('many').find({}, { batchSize: 10 });
    await cursor.next();
    await cursor.close();
    const kill = started.find((event) => event.commandName === 'killCursors');
    expect(kill).toBeDefined();
    const id = (kill!.command as Document).cursors[0];
    await expect(f.db.command({ getMore: id, collection: 'many' })).rejects.toMatchObject({ code: 43 });
  });

  test('batches are capped by bytes, not only by count', async () => {
    const big = f.db.collection('big');
    const payload = 'x'.repeat(1024 * 1024);
    for (let i = 0; i < 20; i++) await big.insertOne({ i, payload });
    const first = await f.db.command({ find: 'big', batchSize: 1000 });
    const firstBatch = first.cursor.firstBatch as Document[];
    expect(firstBatch.length).toBeGreaterThan(0);
    expect(firstBatch.length).toBeLessThan(17);
    expect(first.cursor.id.isZero()).toBe(false);
    const all = await big.find({}, { projection: { i: 1 } }).toArray();
    expect(all).toHaveLength(20);
    expect((await big.find({}).toArray()).length).toBe(20);
  });

  test('an idle cursor times out', async () => {
    const short = await startFixture({ cursorTimeoutMs: 200 });
    try {
      await short.db.collection('c').insertMany(Array.from({ length: 20 }, (_, i) => ({ i })));
      const reply = await short.db.command({ find: 'c', batchSize: 5 });
      const live = await short.db.command({ getMore: reply.cursor.id, collection: 'c', batchSize: 5 });
      expect(live.cursor.nextBatch).toHaveLength(5);
      await new Promise((resolve) => setTimeout(resolve, 650));
      await expect(short.db.command({ getMore: reply.cursor.id, collection: 'c' })).rejects.toMatchObject({ code: 43 });
    } finally {
      await stopFixture(short);
    }
  });

  test('cursor ids are int64 and singleBatch closes the cursor', async () => {
    const reply = await f.db.command({ find: 'many', batchSize: 5 }, { promoteLongs: false });
    expect(reply.cursor.id._bsontype).toBe('Long');
    const single = await f.db.command({ find: 'many', batchSize: 5, singleBatch: true });
    expect(single.cursor.firstBatch).toHaveLength(5);
    expect(Number(single.cursor.id)).toBe(0);
  });

  test('a cursor keeps its place in an index walk while documents are written between batches', async () => {
    const walk = f.db.collection('walk');
    await walk.insertMany(Array.from({ length: 50 }, (_, n) => ({ n })));
    await walk.createIndex({ n: 1 });
    const cursor = walk.find({}, { sort: { n: 1 }, batchSize: 10 });
    const seen: number[] = [];
    for (let i = 0; i < 10; i++) seen.push((await cursor.next())!.n as number);
    await walk.deleteMany({ n: { $in: [5, 15] } });
    await walk.insertMany([{ n: 12.5 }, { n: -1 }]);
    for await (const doc of cursor) seen.push(doc.n as number);
    const expected = [...Array.from({ length: 50 }, (_, n) => n).filter((n) => n !== 15), 12.5]
      .sort((x, y) => x - y)
      .filter((n) => n >= 0);
    expect(seen).toEqual(expected);
  });

  test('pipeline stages after the head stream across getMore batches', async () => {
    const cursor = f.db
      .collection('many')
      .aggregate([{ $addFields: { twice: { $multiply: ['$i', 2] } } }, { $project: { twice: 1, i: 1, _id: 0 } }], {
        batchSize: 30,
      });
    const docs = await cursor.toArray();
    expect(docs).toHaveLength(250);
    expect(docs.every((doc, position) => doc.i === position && doc.twice === 2 * position)).toBe(true);
    expect(Object.keys(docs[0])).toEqual(['i', 'twice']);
    expect(getMores().length).toBeGreaterThanOrEqual(8);
  });
});
