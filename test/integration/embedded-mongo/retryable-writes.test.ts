import { createServer, connect, type Server, type Socket } from 'node:net';
import { Long, MongoClient, MongoServerError, type ClientSession } from 'mongodb';
import { serverError, startFixture, stopFixture, type Fixture } from './embedded-mongo-fixture';

/** The start of an `update` command in BSON: a string element named `update`. */
const UPDATE_COMMAND = Buffer.from('\x02update\x00', 'latin1');

/**
 * A TCP relay to the server that, once armed, lets the next `update` command through and then
 * cuts the client's connection instead of relaying the reply: the write ran, its answer is lost,
 * as when a network fails between the two.
 */
async function replyLosingRelay(
  serverPort: number,
): Promise<{ port: number; armLoss: () => void; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  let armed = false;
  const relay: Server = createServer((client) => {
    const upstream = connect(serverPort, '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => undefined);
    }
    let loseReply = false;
    client.on('data', (chunk: Buffer) => {
      if (armed && chunk.includes(UPDATE_COMMAND)) {
        armed = false;
        loseReply = true;
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (!loseReply) return void client.write(chunk);
      client.destroy();
      upstream.destroy();
    });
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  return {
    port: (relay.address() as { port: number }).port,
    armLoss: () => {
      armed = true;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => relay.close(() => resolve()));
    },
  };
}

describe('embedded mongo: retryable writes run once per (lsid, txnNumber) (mongod retryable writes)', () => {
  let f: Fixture;
  /**
   * Sends the commands below with their own numbers: its sessions (pooled, so reused) serve no
   * driver-numbered write.
   */
  let manual: MongoClient;
  let session: ClientSession;
  /** Transaction numbers only grow on a session, and a pooled session outlives a test. */
  let lastTxn = 0;
  const txn = (offset = 0) => Long.fromNumber(lastTxn + offset);
  const nextTxn = () => Long.fromNumber(++lastTxn);
  beforeAll(async () => {
    f = await startFixture();
    manual = await MongoClient.connect(f.server.url, { serverSelectionTimeoutMS: 3000 });
  });
  beforeEach(() => {
    session = manual.startSession();
  });
  afterEach(async () => session.endSession());
  afterAll(async () => {
    await manual?.close();
    await stopFixture(f);
  });
  const command = (document: Record<string, unknown>) => manual.db(f.db.databaseName).command(document, { session });

  it(
    'an insert sent again with the same txnNumber is answered as before, naming its ' +
      'statements in retriedStmtIds, and inserts nothing more',
    async () => {
      const coll = f.db.collection('once_insert');
      const insert = { insert: 'once_insert', documents: [{ _id: 1 }, { _id: 2 }], txnNumber: nextTxn() };
      const first = await command(insert);
      expect(first).toMatchObject({ n: 2, ok: 1 });
      expect(first.retriedStmtIds).toBeUndefined();
      const again = await command(insert);
      expect(again).toMatchObject({ n: 2, ok: 1, retriedStmtIds: [0, 1] });
      expect(again.writeErrors).toBeUndefined(); // not a second run refused by the unique _id
      expect(await coll.countDocuments()).toBe(2);
    },
  );

  it(
    'a batch with a write error names only the statements that ran (ordered: ' +
      'those before the error; unordered: all but the failed)',
    async () => {
      await f.db.collection('once_batch').insertOne({ _id: 2 } as never);
      const ordered = { insert: 'once_batch', documents: [{ _id: 1 }, { _id: 2 }, { _id: 3 }], txnNumber: nextTxn() };
      const first = await command(ordered);
      expect(first).toMatchObject({ n: 1, writeErrors: [expect.objectContaining({ index: 1, code: 11000 })] });
      expect(await command(ordered)).toMatchObject({ n: 1, retriedStmtIds: [0] });
      const unordered = {
        insert: 'once_batch',
        documents: [{ _id: 4 }, { _id: 2 }, { _id: 5 }],
        ordered: false,
        txnNumber: nextTxn(),
      };
      await command(unordered);
      expect(await command(unordered)).toMatchObject({ n: 2, retriedStmtIds: [0, 2] });
      expect(
        (await f.db.collection('once_batch').find().sort({ _id: 1 }).toArray()).map((document) => document._id),
      ).toEqual([1, 2, 4, 5]);
    },
  );

  it('an $inc and a findAndModify sent again are not applied twice; the retry gets the first value', async () => {
    const coll = f.db.collection('once_update');
    await coll.insertOne({ _id: 1, n: 0 } as never);
    const update = { update: 'once_update', updates: [{ q: { _id: 1 }, u: { $inc: { n: 1 } } }], txnNumber: nextTxn() };
    await command(update);
    expect(await command(update)).toMatchObject({ n: 1, nModified: 1, retriedStmtIds: [0] });
    const findAndModify = {
      findAndModify: 'once_update',
      query: { _id: 1 },
      update: { $inc: { n: 10 } },
      new: true,
      txnNumber: nextTxn(),
    };
    const first = await command(findAndModify);
    expect(first.value).toEqual({ _id: 1, n: 11 });
    const again = await command(findAndModify);
    expect(again).toMatchObject({ value: { _id: 1, n: 11 }, retriedStmtId: 0 });
    expect(await coll.findOne({ _id: 1 } as never)).toEqual({ _id: 1, n: 11 });
  });

  it(
    'a newer txnNumber runs; an older one is refused with ' +
      'TransactionTooOld (225); a failed command is not remembered',
    async () => {
      const coll = f.db.collection('once_numbers');
      await command({ insert: 'once_numbers', documents: [{ _id: 1 }], txnNumber: nextTxn() });
      await command({ insert: 'once_numbers', documents: [{ _id: 2 }], txnNumber: nextTxn() });
      const tooOld = await serverError(
        command({ insert: 'once_numbers', documents: [{ _id: 3 }], txnNumber: txn(-1) }),
      );
      expect(tooOld.code).toBe(225);
      expect(tooOld.codeName).toBe('TransactionTooOld');
      // A command that fails as a whole (it has no `updates`) leaves no record: the same number then runs.
      await serverError(command({ update: 'once_numbers', txnNumber: nextTxn() }));
      const fixed = { update: 'once_numbers', updates: [{ q: { _id: 1 }, u: { $set: { a: 1 } } }], txnNumber: txn() };
      expect((await command(fixed)).retriedStmtIds).toBeUndefined();
      expect(await coll.find().sort({ _id: 1 }).toArray()).toEqual([{ _id: 1, a: 1 }, { _id: 2 }]);
    },
  );

  it(
    'transactions and retryable writes share the session number: a transaction ' +
      'older than a retryable write is TransactionTooOld',
    async () => {
      await command({ insert: 'once_shared', documents: [{ _id: 1 }], txnNumber: nextTxn() });
      const refused = await serverError(
        command({
          insert: 'once_shared',
          documents: [{ _id: 2 }],
          txnNumber: txn(-1),
          startTransaction: true,
          autocommit: false,
        }),
      );
      expect(refused.codeName).toBe('TransactionTooOld');
    },
  );

  it(
    'the driver retries an update whose reply was lost, and the counter moves ' +
      'once (with retryWrites=false the same loss is an error)',
    async () => {
      const coll = f.db.collection('once_lost_reply');
      await coll.insertOne({ _id: 1, n: 0 } as never);
      const relay = await replyLosingRelay(Number(new URL(f.server.url).port));
      const clients: MongoClient[] = [];
      const through = async (options: string) => {
        const client = new MongoClient(`mongodb://127.0.0.1:${relay.port}/?directConnection=true&${options}`, {
          serverSelectionTimeoutMS: 5000,
        });
        clients.push(client);
        await client.connect();
        return client.db(f.db.databaseName).collection('once_lost_reply');
      };
      try {
        const retrying = await through('retryWrites=true');
        relay.armLoss();
        const result = await retrying.updateOne({ _id: 1 } as never, { $inc: { n: 1 } });
        expect(result.modifiedCount).toBe(1);
        expect(await coll.findOne({ _id: 1 } as never)).toEqual({ _id: 1, n: 1 });

        // The relay does lose the reply: without retries the caller sees the failure, and the write did run.
        const single = await through('retryWrites=false');
        relay.armLoss();
        const lost = await single.updateOne({ _id: 1 } as never, { $inc: { n: 1 } }).then(
          () => undefined,
          (error: unknown) => error,
        );
        expect(lost).toBeInstanceOf(Error);
        expect(lost).not.toBeInstanceOf(MongoServerError);
        expect(await coll.findOne({ _id: 1 } as never)).toEqual({ _id: 1, n: 2 });
      } finally {
        for (const client of clients) await client.close();
        await relay.close();
      }
    },
  );
});
