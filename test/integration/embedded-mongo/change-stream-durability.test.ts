import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MongoClient, Timestamp, type ChangeStreamDocument, type Document, type ResumeToken } from 'mongodb';
import { startEmbeddedMongo } from '../../../src/embedded-mongo';
import { frameRecord } from '../../../src/embedded-mongo/storage/journal-record';
import { encodeStored } from '../../../src/embedded-mongo/storage/stored-bson';
import { startChildServer, type ChildServer } from './child-server';
import { recordingLogger } from './embedded-mongo-fixture';

jest.setTimeout(60_000);

/** A short awaitData wait: an empty batch comes back after 100 ms. */
const QUICK = { maxAwaitTimeMS: 100 };

const connect = (url: string): Promise<MongoClient> =>
  new MongoClient(url, { serverSelectionTimeoutMS: 5000, retryWrites: false, maxPoolSize: 10 }).connect();

/** Every event a stream resumed after `token` delivers now (it stops at the first empty batch). */
async function eventsAfter(client: MongoClient, token: ResumeToken, bound: number): Promise<ChangeStreamDocument[]> {
  const stream = client
    .db('crash')
    .collection('events')
    .watch([], { ...QUICK, resumeAfter: token });
  const events: ChangeStreamDocument[] = [];
  try {
    for (let event = await stream.tryNext(); event && events.length <= bound; event = await stream.tryNext())
      events.push(event);
  } finally {
    await stream.close();
  }
  return events;
}

describe('embedded mongo: the change-stream history is as durable as the data (one journal write for both)', () => {
  let dataDir: string;
  let child: ChildServer | undefined;
  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'cs-durability-'));
  });
  afterEach(async () => {
    await child?.kill();
    child = undefined;
    await rm(dataDir, { recursive: true, force: true });
  });

  test(
    'after a SIGKILL in the middle of acknowledged inserts (snapshots taken meanwhile), a ' +
      'token from before them resumes and sees exactly the stored documents',
    async () => {
      // A snapshot every ~64 KiB of journal: the run crosses several, each holding the window of its moment.
      child = await startChildServer(dataDir, ['--snapshot-journal-bytes', '65536']);
      const client = await connect(child.url);
      const events = client.db('crash').collection<{ _id: number; payload: string }>('events');
      const opening = events.watch([], QUICK);
      await opening.tryNext();
      const before = opening.resumeToken!;
      await opening.close();
      const acknowledged = new Set<number>();
      let next = 0;
      const writers = Array.from({ length: 8 }, async () => {
        while (next < 20_000) {
          const id = next++;
          try {
            await events.insertOne({ _id: id, payload: 'x'.repeat(300) });
            acknowledged.add(id);
          } catch {
            return; // the server is gone
          }
        }
      });
      for (let waited = 0; acknowledged.size < 400 && waited < 15_000; waited += 5)
        await new Promise((r) => setTimeout(r, 5));
      await child.kill();
      await Promise.all(writers);
      await client.close();
      expect(acknowledged.size).toBeGreaterThanOrEqual(400);

      child = await startChildServer(dataDir);
      const again = await connect(child.url);
      try {
        const stored = (
          await again
            .db('crash')
            .collection('events')
            .find({}, { projection: { _id: 1 } })
            .toArray()
        ).map((doc) => doc._id as unknown as number);
        const seen = await eventsAfter(again, before, next);
        const inserted = seen.map((event) =>
          event.operationType === 'insert' ? (event.documentKey._id as unknown as number) : -1,
        );
        expect([...acknowledged].filter((id) => !inserted.includes(id))).toEqual([]); // no acknowledged change lost
        // and none without its document, or twice
        expect(inserted.sort((a, b) => a - b)).toEqual(stored.sort((a, b) => a - b));
      } finally {
        await again.close();
      }
    },
  );

  test(
    'a run as a standalone keeps the window as it found it (as mongod keeps ' +
      'its oplog): a token from before resumes afterwards',
    async () => {
      const start = (standalone: boolean) =>
        startEmbeddedMongo({ host: '127.0.0.1', port: 0, dataDir, standalone, logger: recordingLogger() });
      let server = await start(false);
      let client = await connect(server.url);
      const stream = client.db('kept').collection('c').watch([], QUICK);
      await stream.tryNext();
      await client
        .db('kept')
        .collection('c')
        .insertMany([{ n: 1 }, { n: 2 }]);
      const token = ((await stream.next()) as Document)._id as ResumeToken;
      await stream.close();
      await client.close();
      await server.stop();

      // its writes are in no history, as a replica-set member's maintenance writes are in no oplog
      server = await start(true);
      client = await connect(server.url);
      await client.db('kept').collection('c').insertOne({ n: 3 });
      await client.close();
      await server.stop(); // the snapshot it writes holds the window it found

      server = await start(false);
      client = await connect(server.url);
      try {
        const resumed = client
          .db('kept')
          .collection('c')
          .watch([], { ...QUICK, resumeAfter: token });
        expect(((await resumed.next()) as Document).fullDocument.n).toBe(2);
        expect(await resumed.tryNext()).toBeNull();
        await resumed.close();
        expect(await client.db('kept').collection('c').countDocuments()).toBe(3);
      } finally {
        await client.close();
        await server.stop();
      }
    },
  );

  test(
    'a window an earlier version kept in its own folder is taken over ' +
      'into the journal, then survives the next restart',
    async () => {
      const time = new Timestamp({ t: Math.floor(Date.now() / 1000) - 60, i: 1 });
      const horizon = { horizon: { time: new Timestamp({ t: time.t - 1, i: 1 }), op: 0 } };
      const record = {
        clusterTime: time,
        txnOpIndex: 0,
        wallTime: new Date(time.t * 1000),
        operationType: 'insert',
        db: 'old',
        coll: 'things',
        documentKey: { _id: 1 },
        fullDocument: { _id: 1, kept: true },
        bytes: 160,
      };
      const legacyFolder = path.join(dataDir, 'change-stream-history');
      await mkdir(legacyFolder);
      await writeFile(
        path.join(legacyFolder, 'journal-0000000001.log'),
        frameRecord([encodeStored(horizon), encodeStored(record)]),
      );

      const replayed = async (): Promise<Document[]> => {
        const server = await startEmbeddedMongo({ host: '127.0.0.1', port: 0, dataDir, logger: recordingLogger() });
        const client = await connect(server.url);
        try {
          const stream = client
            .db('old')
            .collection('things')
            .watch([], { ...QUICK, startAtOperationTime: time });
          const first = await stream.tryNext();
          await stream.close();
          return first
            ? [
                {
                  operationType: first.operationType,
                  fullDocument: (first as Document).fullDocument,
                  clusterTime: (first as Document).clusterTime,
                },
              ]
            : [];
        } finally {
          await client.close();
          await server.stop();
        }
      };
      const expected = [{ operationType: 'insert', fullDocument: { _id: 1, kept: true }, clusterTime: time }];
      expect(await replayed()).toEqual(expected);
      expect(await readdir(dataDir)).not.toContain('change-stream-history');
      expect(await replayed()).toEqual(expected); // from the snapshot now
    },
  );
});
