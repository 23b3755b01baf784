import { promises as fs } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MongoClient, type Document, type ResumeToken } from 'mongodb';
import { startEmbeddedMongo } from '../../../src/embedded-mongo';
import { recordingLogger, startFixture, stopFixture, type Fixture } from './embedded-mongo-fixture';

/** A short awaitData wait: opening a stream with tryNext() then costs 100 ms instead of mongod's default 1 s. */
const QUICK = { maxAwaitTimeMS: 100 };

describe('embedded mongo change streams: resuming', () => {
  let f: Fixture;
  beforeAll(async () => {
    f = await startFixture({ changeStreamHistoryEvents: 50 });
  });
  afterAll(async () => stopFixture(f));

  it('resumeAfter / startAfter a token continue right after that event (mongod resume tokens)', async () => {
    const coll = f.db.collection('resume');
    const stream = coll.watch([], QUICK);
    await stream.tryNext();
    await coll.insertMany([{ n: 1 }, { n: 2 }, { n: 3 }]);
    const first = await stream.next();
    await stream.close();
    for (const option of ['resumeAfter', 'startAfter'] as const) {
      const resumed = coll.watch([], { ...QUICK, [option]: first._id });
      const [second, third] = [await resumed.next(), await resumed.next()];
      expect([second, third].map((event) => (event as Document).fullDocument.n)).toEqual([2, 3]);
      await resumed.close();
    }
  });

  it('startAtOperationTime replays from that cluster time (operationTime of a reply)', async () => {
    const coll = f.db.collection('optime');
    const session = f.client.startSession();
    await coll.insertOne({ n: 1 }, { session });
    const time = session.operationTime!;
    await session.endSession();
    await coll.insertOne({ n: 2 });
    const stream = coll.watch([], { ...QUICK, startAtOperationTime: time });
    expect(((await stream.next()) as Document).fullDocument.n).toBe(1);
    expect(((await stream.next()) as Document).fullDocument.n).toBe(2);
    await stream.close();
  });

  it(
    'resuming after a drop re-reports invalidate; startAfter the invalidate ' +
      'continues past it; resumeAfter it fails with code 260 (mongod)',
    async () => {
      const coll = f.db.collection('reborn');
      await coll.insertOne({ a: 1 });
      const stream = coll.watch([], QUICK);
      await stream.tryNext();
      await coll.drop();
      const drop = (await stream.next()) as Document;
      const invalidate = (await stream.next()) as Document;
      await coll.insertOne({ after: true });
      const again = coll.watch([], { ...QUICK, resumeAfter: drop._id as ResumeToken });
      expect(((await again.next()) as Document).operationType).toBe('invalidate');
      const after = coll.watch([], { ...QUICK, startAfter: invalidate._id as ResumeToken });
      expect(((await after.next()) as Document).fullDocument).toMatchObject({ after: true });
      await after.close();
      const refused = coll.watch([], { ...QUICK, resumeAfter: invalidate._id as ResumeToken });
      await expect(refused.tryNext()).rejects.toMatchObject({ code: 260, codeName: 'InvalidResumeToken' });
      await refused.close();
    },
  );

  it(
    'a token older than the bounded history fails with code 286 ' +
      'ChangeStreamHistoryLost, as mongod once the oplog rolled over',
    async () => {
      const coll = f.db.collection('lost');
      const stream = coll.watch([], QUICK);
      await stream.tryNext();
      await coll.insertOne({ n: 0 });
      const first = (await stream.next()) as Document;
      await stream.close();
      await coll.insertMany(Array.from({ length: 60 }, (_, n) => ({ n: n + 1 }))); // the window holds 50
      const resumed = coll.watch([], { ...QUICK, resumeAfter: first._id as ResumeToken });
      await expect(resumed.tryNext()).rejects.toMatchObject({ code: 286, codeName: 'ChangeStreamHistoryLost' });
      await resumed.close();
    },
  );
});

describe('embedded mongo change streams across a restart with a dataDir', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await fs.mkdtemp(path.join(tmpdir(), 'cs-restart-'));
  });
  afterEach(async () => fs.rm(dataDir, { recursive: true, force: true }));

  it(
    'a resume token taken before a restart resumes after it (the ' + 'window is persisted beside the journal)',
    async () => {
      let server = await startEmbeddedMongo({ host: '127.0.0.1', port: 0, dataDir, logger: recordingLogger() });
      let client = await new MongoClient(server.url, { serverSelectionTimeoutMS: 3000 }).connect();
      let coll = client.db('persist').collection('c');
      const stream = coll.watch([], QUICK);
      await stream.tryNext();
      await coll.insertMany([{ n: 1 }, { n: 2 }]);
      const first = (await stream.next()) as Document;
      await stream.close();
      await client.close();
      await server.stop();

      server = await startEmbeddedMongo({ host: '127.0.0.1', port: 0, dataDir, logger: recordingLogger() });
      client = await new MongoClient(server.url, { serverSelectionTimeoutMS: 3000 }).connect();
      try {
        coll = client.db('persist').collection('c');
        const resumed = coll.watch([], { ...QUICK, resumeAfter: first._id as ResumeToken });
        expect(((await resumed.next()) as Document).fullDocument.n).toBe(2);
        await coll.insertOne({ n: 3 });
        expect(((await resumed.next()) as Document).fullDocument.n).toBe(3);
        await resumed.close();
      } finally {
        await client.close();
        await server.stop();
      }
    },
  );

  it('without a dataDir a restart starts a fresh history: an old token fails with code 286', async () => {
    const first = await startFixture();
    const stream = first.db.collection('c').watch([], QUICK);
    await stream.tryNext();
    await first.db.collection('c').insertOne({ n: 1 });
    const token = ((await stream.next()) as Document)._id as ResumeToken;
    await stream.close();
    await stopFixture(first);
    // The fresh history starts at the current second: a token from an earlier second lies before it
    // (history lost, 286), while one from the same second would lie inside it and simply not be
    // found (280), as in mongod. So the second server starts in the next second.
    await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 20));
    const second = await startFixture();
    try {
      const resumed = second.db.collection('c').watch([], { ...QUICK, resumeAfter: token });
      await expect(resumed.tryNext()).rejects.toMatchObject({ code: 286 });
      await resumed.close();
    } finally {
      await stopFixture(second);
    }
  });
});
