import { MongoClient, MongoServerError } from 'mongodb';
import { startEmbeddedMongo, type EmbeddedMongo } from '../../../src/embedded-mongo';
import { recordingLogger, startFixture, stopFixture, type Fixture } from './embedded-mongo-fixture';

describe('embedded mongo as a one-member replica set', () => {
  let f: Fixture;
  beforeAll(async () => {
    f = await startFixture();
  });
  afterAll(async () => stopFixture(f));

  it(
    'hello reports the primary of replica set rs0, named by the address the ' +
      'client used (mongod hello on a replica-set primary)',
    async () => {
      const hello = await f.db.admin().command({ hello: 1 });
      const me = new URL(f.server.url).host;
      expect(hello).toMatchObject({
        setName: 'rs0',
        isWritablePrimary: true,
        secondary: false,
        hosts: [me],
        primary: me,
        me,
        setVersion: 1,
      });
      expect(hello.electionId).toBeDefined();
      expect(hello.lastWrite.opTime.ts).toBeDefined();
      expect(hello.topologyVersion).toBeUndefined(); // keeps the monitor on polling hello
      expect(hello.$clusterTime.clusterTime).toBeDefined();
      expect(hello.operationTime).toBeDefined();
    },
  );

  it(
    'the driver sees a ReplicaSetWithPrimary topology with and without ' +
      '?replicaSet=rs0 (SDAM discovery from hosts)',
    async () => {
      for (const url of [f.server.url, `${f.server.url}?replicaSet=rs0`]) {
        const client = new MongoClient(url, { serverSelectionTimeoutMS: 3000 });
        try {
          await client.db('rs').collection('c').insertOne({ a: 1 });
          const description = (client as unknown as { topology: { description: { type: string } } }).topology
            .description;
          expect(description.type).toBe('ReplicaSetWithPrimary');
        } finally {
          await client.close();
        }
      }
    },
  );

  it('a wrong ?replicaSet= name finds no server (the driver checks setName)', async () => {
    const client = new MongoClient(`${f.server.url}?replicaSet=other`, { serverSelectionTimeoutMS: 500 });
    await expect(client.db('rs').command({ ping: 1 })).rejects.toThrow(/Server selection timed out/);
    await client.close();
  });

  it('replSetGetStatus lists one PRIMARY member, this server (mongod replSetGetStatus)', async () => {
    const status = await f.db.admin().command({ replSetGetStatus: 1 });
    expect(status.set).toBe('rs0');
    expect(status.myState).toBe(1);
    expect(status.members).toEqual([
      expect.objectContaining({ _id: 0, name: new URL(f.server.url).host, stateStr: 'PRIMARY', self: true }),
    ]);
  });

  it('replies carry operationTime, and a causally consistent session reads its own writes', async () => {
    const session = f.client.startSession({ causalConsistency: true });
    try {
      const coll = f.db.collection('causal');
      await coll.insertOne({ _id: 1 } as never, { session });
      expect(session.operationTime).toBeDefined();
      expect(await coll.findOne({ _id: 1 } as never, { session })).toEqual({ _id: 1 });
    } finally {
      await session.endSession();
    }
  });

  it('replicaSetName names the set', async () => {
    const server = await startEmbeddedMongo({
      host: '127.0.0.1',
      port: 0,
      logger: recordingLogger(),
      replicaSetName: 'dev',
    });
    const client = new MongoClient(`${server.url}?replicaSet=dev`, { serverSelectionTimeoutMS: 3000 });
    try {
      expect((await client.db('admin').command({ hello: 1 })).setName).toBe('dev');
    } finally {
      await client.close();
      await server.stop();
    }
  });
});

describe('embedded mongo on a private Unix socket, as the application connects', () => {
  let server: EmbeddedMongo;
  beforeAll(async () => {
    server = await startEmbeddedMongo({ privateSocket: true, logger: recordingLogger() });
  });
  afterAll(async () => server.stop());

  it('works through the socket URL with and without ?replicaSet=rs0 (the member name is the socket path)', async () => {
    for (const url of [server.url, `${server.url}?replicaSet=rs0`]) {
      const client = new MongoClient(url, { serverSelectionTimeoutMS: 3000 });
      try {
        const hello = await client.db('admin').command({ hello: 1 });
        expect(hello.hosts).toEqual([decodeURIComponent(/^mongodb:\/\/([^/]+)\//.exec(server.url)![1])]);
        await client.withSession((session) =>
          session.withTransaction(() => client.db('s').collection('c').insertOne({ a: 1 }, { session })),
        );
        expect(await client.db('s').collection('c').countDocuments()).toBeGreaterThan(0);
      } finally {
        await client.close();
      }
    }
  });
});

describe('embedded mongo with standalone: true', () => {
  let f: Fixture;
  beforeAll(async () => {
    f = await startFixture({ standalone: true });
  });
  afterAll(async () => stopFixture(f));

  it('hello reports no set name (a standalone)', async () => {
    const hello = await f.db.admin().command({ hello: 1 });
    expect(hello.setName).toBeUndefined();
    expect(hello.$clusterTime).toBeUndefined();
  });

  it(
    'mongod standalone refuses transactions: code 20 IllegalOperation "Transaction ' +
      'numbers are only allowed on a replica set member or mongos"',
    async () => {
      const session = f.client.startSession();
      try {
        session.startTransaction();
        // A read shows the server's error as it is (on a write the driver swaps in its own retryWrites advice).
        const error = await f.db
          .collection('t')
          .findOne({}, { session })
          .catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(MongoServerError);
        expect(error).toMatchObject({
          code: 20,
          codeName: 'IllegalOperation',
          message: 'Transaction numbers are only allowed on a replica set member or mongos',
        });
      } finally {
        await session.abortTransaction().catch(() => undefined);
        await session.endSession();
      }
    },
  );

  it(
    'mongod standalone refuses $changeStream: code 40573 "The ' +
      '$changeStream stage is only supported on replica sets"',
    async () => {
      const stream = f.db.collection('t').watch();
      const error = await stream.tryNext().catch((caught: unknown) => caught);
      expect(error).toMatchObject({
        code: 40573,
        message: 'The $changeStream stage is only supported on replica sets',
      });
      await stream.close();
    },
  );

  it('mongod standalone answers replSetGetStatus with code 76 NoReplicationEnabled', async () => {
    await expect(f.db.admin().command({ replSetGetStatus: 1 })).rejects.toMatchObject({
      code: 76,
      codeName: 'NoReplicationEnabled',
    });
  });
});
