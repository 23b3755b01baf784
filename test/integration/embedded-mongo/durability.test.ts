import { spawnSync } from 'node:child_process';
import { appendFile, mkdtemp, readdir, readFile, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  Binary,
  BSONRegExp,
  Code,
  Decimal128,
  Double,
  Int32,
  Long,
  MaxKey,
  MinKey,
  MongoClient,
  ObjectId,
  Timestamp,
  UUID,
  type Document,
} from 'mongodb';
import { startEmbeddedMongo } from '../../../src/embedded-mongo';
import { Catalog } from '../../../src/embedded-mongo/storage/catalog';
import { SnapshotStorageEngine } from '../../../src/embedded-mongo/storage/snapshot-storage-engine';
import { startChildServer, type ChildServer } from './child-server';
import { recordingLogger, startFixture, stopFixture } from './embedded-mongo-fixture';

jest.setTimeout(60_000);

const connect = (url: string): Promise<MongoClient> =>
  new MongoClient(url, { serverSelectionTimeoutMS: 5000, retryWrites: false, maxPoolSize: 25 }).connect();

async function journalFiles(dataDir: string): Promise<string[]> {
  return (await readdir(dataDir)).filter((name) => /^journal-\d+\.log$/.test(name)).sort();
}

describe('embedded mongo: durability with a dataDir', () => {
  let dataDir: string;
  let child: ChildServer | undefined;
  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'embedded-durability-'));
  });
  afterEach(async () => {
    await child?.kill();
    child = undefined;
    await rm(dataDir, { recursive: true, force: true });
  });

  test('every acknowledged insert survives a SIGKILL in the middle of a stream of writes', async () => {
    child = await startChildServer(dataDir);
    const client = await connect(child.url);
    const collection = client.db('crash').collection<{ _id: number; writer: number; payload: string }>('events');
    const acknowledged = new Set<number>();
    let next = 0;
    let stopped = false;
    const writers = Array.from({ length: 20 }, async (_, writer) => {
      while (!stopped && next < 20_000) {
        const id = next++;
        try {
          await collection.insertOne({ _id: id, writer, payload: 'x'.repeat(200) });
          acknowledged.add(id);
        } catch {
          return; // the server is gone
        }
      }
    });
    for (let waited = 0; acknowledged.size < 500 && waited < 15_000; waited += 5)
      await new Promise((r) => setTimeout(r, 5));
    await child.kill();
    await Promise.all(writers);
    stopped = true;
    await client.close();
    expect(acknowledged.size).toBeGreaterThanOrEqual(500);

    child = await startChildServer(dataDir);
    expect(child.output()).toContain('taking over a stale dataDir lock');
    const again = await connect(child.url);
    try {
      const stored = new Set(
        (
          await again
            .db('crash')
            .collection('events')
            .find({}, { projection: { _id: 1 } })
            .toArray()
        ).map((d) => d._id as unknown as number),
      );
      const lost = [...acknowledged].filter((id) => !stored.has(id));
      expect(lost).toEqual([]);
      expect(stored.size).toBeLessThanOrEqual(next);
    } finally {
      await again.close();
    }
  });

  test.each([
    ['garbage appended after the last record', 'garbage', 10],
    ['the last record cut short', 'truncate', 9],
  ])(
    'a torn journal tail (%s) is cut off with a warning and everything before it is recovered',
    async (_label, damage, kept) => {
      child = await startChildServer(dataDir);
      const client = await connect(child.url);
      for (let i = 0; i < 10; i++)
        await client
          .db('torn')
          .collection('docs')
          .insertOne({ _id: i as unknown as ObjectId, i });
      await client.close();
      await child.kill();
      child = undefined;
      const [journal] = (await journalFiles(dataDir)).slice(-1);
      const file = path.join(dataDir, journal);
      if (damage === 'garbage') await appendFile(file, Buffer.from([0x2a, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7]));
      else await truncate(file, (await stat(file)).size - 3);

      const logger = recordingLogger();
      const fixture = await startFixture({ dataDir, logger });
      try {
        const ids = (await fixture.client.db('torn').collection('docs').find().toArray()).map((d) => d._id);
        expect(ids).toEqual(Array.from({ length: kept }, (_, i) => i));
        expect(logger.lines.some((line) => line.startsWith('journal tail is torn or corrupt'))).toBe(true);
      } finally {
        await stopFixture(fixture);
      }
    },
  );

  test('a second server on the same dataDir is refused; a stale lock from a dead pid is taken over', async () => {
    const first = await startEmbeddedMongo({ dataDir, logger: recordingLogger() });
    await expect(startEmbeddedMongo({ dataDir, logger: recordingLogger() })).rejects.toThrow(
      /in use by another server/,
    );
    expect(JSON.parse(await readFile(path.join(dataDir, 'mongod.lock'), 'utf8'))).toMatchObject({ pid: process.pid });
    await first.stop();

    const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
    await writeFile(path.join(dataDir, 'mongod.lock'), `${dead}\n`);
    const logger = recordingLogger();
    const second = await startEmbeddedMongo({ dataDir, logger });
    await second.stop();
    expect(
      logger.lines.some((line) => line.startsWith('taking over a stale dataDir lock') && line.includes(String(dead))),
    ).toBe(true);
    expect(await readdir(dataDir)).not.toContain('mongod.lock');
  });

  test('snapshots compact the journal, and recovery combines the snapshot with the newer journal', async () => {
    child = await startChildServer(dataDir, ['--snapshot-journal-bytes', '20000', '--snapshot-interval-ms', '100']);
    const client = await connect(child.url);
    const docs = client.db('compact').collection('docs');
    await docs.createIndex({ key: 1 }, { unique: true });
    for (let i = 0; i < 300; i++)
      await docs.insertOne({ _id: i as unknown as ObjectId, key: `k${i}`, body: 'y'.repeat(150) });
    await docs.updateMany({ _id: { $lt: 50 } as never }, { $set: { updated: true } });
    await docs.deleteMany({ _id: { $gte: 280 } as never });
    for (let waited = 0; waited < 10_000; waited += 50) {
      const files = await readdir(dataDir);
      if (files.includes('snapshot.bson') && !files.includes('journal-0000000001.log')) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(await journalFiles(dataDir)).not.toContain('journal-0000000001.log');
    await docs.insertOne({ _id: 1000 as unknown as ObjectId, key: 'after-snapshot' });
    const expected = await docs.find().toArray();
    await client.close();
    await child.kill();

    child = await startChildServer(dataDir);
    const again = await connect(child.url);
    try {
      expect(await again.db('compact').collection('docs').find().toArray()).toEqual(expected);
      await expect(again.db('compact').collection('docs').insertOne({ key: 'k1' })).rejects.toMatchObject({
        code: 11000,
      });
    } finally {
      await again.close();
    }
  });

  test('every BSON type round-trips through the journal and through a snapshot', async () => {
    const original: Document = {
      _id: new ObjectId(),
      int32: new Int32(7),
      integralDouble: new Double(3),
      double: 2.5,
      longSmall: Long.fromNumber(5),
      longBig: Long.fromString('9007199254740993'),
      decimal: Decimal128.fromString('1234.5678901234567890'),
      string: 'héllo ✓',
      bool: true,
      nil: null,
      date: new Date('2024-02-29T12:34:56.789Z'),
      binary: new Binary(Buffer.from([1, 2, 3, 255]), 0),
      uuid: new UUID(),
      timestamp: new Timestamp({ t: 1700000000, i: 3 }),
      regex: new BSONRegExp('^a.c$', 'im'),
      code: new Code('function () { return 1; }'),
      min: new MinKey(),
      max: new MaxKey(),
      nested: { array: [1, 'two', { three: [new Int32(3)] }], empty: {} },
      specials: [Number.NaN, Number.POSITIVE_INFINITY, -0],
    };
    const read = async (url: string): Promise<Document | null> => {
      const client = await connect(url);
      try {
        return await client
          .db('types')
          .collection('all')
          .findOne({}, { promoteValues: false, promoteLongs: false, bsonRegExp: true });
      } finally {
        await client.close();
      }
    };
    child = await startChildServer(dataDir);
    const client = await connect(child.url);
    await client.db('types').collection('all').insertOne(original);
    await client.close();
    const before = await read(child.url);
    await child.kill();

    child = await startChildServer(dataDir);
    expect(await read(child.url)).toEqual(before); // replayed from the journal
    await child.stop();
    expect(await journalFiles(dataDir)).toEqual([]); // a clean stop leaves only the snapshot

    child = await startChildServer(dataDir);
    expect(await read(child.url)).toEqual(before); // loaded from the snapshot
  });

  test('a dataDir written by the part-1 snapshot engine is migrated into the snapshot', async () => {
    const legacy = new SnapshotStorageEngine(dataDir);
    const catalog = new Catalog(legacy);
    catalog.restore(await legacy.load());
    catalog.ensureCollection('old', 'things').store.insert({ _id: 1, kept: true });
    await legacy.close();
    expect(await readdir(path.join(dataDir, 'old'))).toEqual(['things.bson', 'things.meta.json']);

    const fixture = await startFixture({ dataDir });
    expect(await fixture.client.db('old').collection('things').find().toArray()).toEqual([{ _id: 1, kept: true }]);
    await stopFixture(fixture);
    expect(await readdir(dataDir)).toEqual(['snapshot.bson']); // the change-stream window is in the snapshot too
  });

  test('without a dataDir nothing is written', async () => {
    const memory = await startFixture({});
    await memory.db.collection('c').insertOne({ a: 1 });
    await stopFixture(memory);
    expect(await readdir(dataDir)).toEqual([]);
  });
});
