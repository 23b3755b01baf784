import { MongoClient, MongoServerError } from 'mongodb';
import { startFixture, stopFixture, type Fixture } from './embedded-mongo-fixture';

describe('embedded mongo: handshake and server commands', () => {
  let f: Fixture;
  beforeAll(async () => {
    f = await startFixture();
  });
  afterAll(() => stopFixture(f));

  test(
    'the driver sees a 7.0 replica-set primary that supports sessions ' + '(a standalone only with standalone: true)',
    async () => {
      const hello = await f.db.admin().command({ hello: 1 });
      expect(hello).toMatchObject({
        ok: 1,
        isWritablePrimary: true,
        maxWireVersion: 21,
        minWireVersion: 0,
        logicalSessionTimeoutMinutes: 30,
        maxBsonObjectSize: 16 * 1024 * 1024,
        maxMessageSizeBytes: 48_000_000,
      });
      expect(hello.setName).toBe('rs0');
      expect(hello.topologyVersion).toBeUndefined();
      const observer = new MongoClient(f.server.url, { serverSelectionTimeoutMS: 3000 });
      const types: string[] = [];
      observer.on('serverDescriptionChanged', (event) => types.push(event.newDescription.type));
      try {
        await observer.connect();
        expect(types).toContain('RSPrimary');
      } finally {
        await observer.close();
      }
    },
  );

  test('isMaster, ismaster, ping and buildInfo answer', async () => {
    expect((await f.db.admin().command({ isMaster: 1 })).ismaster).toBe(true);
    expect((await f.db.admin().command({ ismaster: 1 })).ismaster).toBe(true);
    // plus $clusterTime and operationTime, as a replica set replies
    expect(await f.db.command({ ping: 1 })).toMatchObject({ ok: 1 });
    const info = await f.db.admin().command({ buildInfo: 1 });
    expect(info.version).toMatch(/^7\.0\./);
    expect(info.versionArray.slice(0, 2)).toEqual([7, 0]);
  });

  test('getParameter returns requested parameters and serverStatus is minimal but present', async () => {
    const fcv = await f.db.admin().command({ getParameter: 1, featureCompatibilityVersion: 1 });
    expect(fcv.featureCompatibilityVersion).toEqual({ version: '7.0' });
    const status = await f.db.admin().command({ serverStatus: 1 });
    expect(status).toMatchObject({ ok: 1, process: 'mongod' });
    expect(status.connections.current).toBeGreaterThan(0);
  });

  test('listDatabases and dropDatabase follow the collections', async () => {
    await f.client.db('handshake_a').collection('c').insertOne({ a: 1 });
    const listed = await f.db.admin().listDatabases();
    expect(listed.databases.map((d) => d.name)).toContain('handshake_a');
    await f.client.db('handshake_a').dropDatabase();
    const after = await f.db.admin().listDatabases({ nameOnly: true });
    expect(after.databases.map((d) => d.name)).not.toContain('handshake_a');
  });

  test('sessions work: explicit session, endSessions on close', async () => {
    const session = f.client.startSession();
    await f.db.collection('sessions').insertOne({ s: 1 }, { session });
    await session.endSession();
    const sessions = await f.client
      .db('admin')
      .aggregate([{ $listLocalSessions: {} }])
      .toArray();
    expect(sessions.length).toBeGreaterThan(0);
  });

  test('an unknown command fails with CommandNotFound (59)', async () => {
    const error = await f.db.command({ frobnicate: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MongoServerError);
    expect(error).toMatchObject({ code: 59, codeName: 'CommandNotFound' });
    expect((error as Error).message).toContain("no such command: 'frobnicate'");
  });
});
