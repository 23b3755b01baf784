import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Long, MongoServerError, type ClientSession, type Collection, type Document } from 'mongodb';
import { decodeRecord } from '../../../src/embedded-mongo/storage/journal-codec';
import { scanRecords } from '../../../src/embedded-mongo/storage/journal-record';
import { startFixture, stopFixture, type Fixture } from './embedded-mongo-fixture';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `work` and returns the server error it fails with. */
async function serverError(work: () => Promise<unknown>): Promise<MongoServerError> {
  try {
    await work();
  } catch (error) {
    if (error instanceof MongoServerError) return error;
    throw error;
  }
  throw new Error('expected a server error');
}

describe('embedded mongo: transactions', () => {
  let fixture: Fixture;
  let accounts: Collection<Document>;
  const sessions: ClientSession[] = [];
  const session = (): ClientSession => {
    const started = fixture.client.startSession();
    sessions.push(started);
    return started;
  };

  beforeEach(async () => {
    fixture = await startFixture({ transactionTimeoutMs: 400 });
    accounts = fixture.db.collection('accounts');
    await accounts.insertMany([
      { _id: 'a' as never, balance: 100 },
      { _id: 'b' as never, balance: 0 },
    ]);
  });
  afterEach(async () => {
    for (const started of sessions.splice(0)) await started.endSession().catch(() => undefined);
    await stopFixture(fixture);
  });

  test('uncommitted writes are invisible to other sessions and visible after commit', async () => {
    const txn = session();
    txn.startTransaction();
    await accounts.insertOne({ _id: 'c' as never, balance: 5 }, { session: txn });
    await accounts.updateOne({ _id: 'a' as never }, { $inc: { balance: -5 } }, { session: txn });
    expect(await accounts.findOne({ _id: 'c' as never }, { session: txn })).toEqual({ _id: 'c', balance: 5 });
    expect(await accounts.findOne({ _id: 'c' as never })).toBeNull();
    expect(await accounts.findOne({ _id: 'a' as never })).toEqual({ _id: 'a', balance: 100 });
    expect(await accounts.countDocuments({})).toBe(2);
    await txn.commitTransaction();
    expect(await accounts.find().sort({ _id: 1 }).toArray()).toEqual([
      { _id: 'a', balance: 95 },
      { _id: 'b', balance: 0 },
      { _id: 'c', balance: 5 },
    ]);
  });

  test('reads inside see the snapshot taken at start, also in collections first touched later', async () => {
    await fixture.db.collection('other').insertOne({ _id: 1 as never, v: 'old' });
    const txn = session();
    txn.startTransaction();
    expect((await accounts.findOne({ _id: 'a' as never }, { session: txn }))?.balance).toBe(100);
    await accounts.updateOne({ _id: 'a' as never }, { $set: { balance: 1 } });
    await fixture.db.collection('other').updateOne({ _id: 1 as never }, { $set: { v: 'new' } });
    await fixture.db.collection('other').insertOne({ _id: 2 as never, v: 'late' });
    expect((await accounts.findOne({ _id: 'a' as never }, { session: txn }))?.balance).toBe(100);
    expect(await fixture.db.collection('other').find({}, { session: txn }).toArray()).toEqual([{ _id: 1, v: 'old' }]);
    await txn.abortTransaction();
  });

  test('abort rolls everything back', async () => {
    const txn = session();
    txn.startTransaction();
    await accounts.insertOne({ _id: 'c' as never }, { session: txn });
    await accounts.updateOne({ _id: 'a' as never }, { $set: { balance: 0 } }, { session: txn });
    await accounts.deleteOne({ _id: 'b' as never }, { session: txn });
    await fixture.db.collection('created').insertOne({ x: 1 }, { session: txn });
    await txn.abortTransaction();
    expect(await accounts.find().sort({ _id: 1 }).toArray()).toEqual([
      { _id: 'a', balance: 100 },
      { _id: 'b', balance: 0 },
    ]);
    expect(await fixture.db.listCollections({ name: 'created' }).toArray()).toEqual([]);
  });

  test(
    'two transactions on one document conflict (112, ' +
      'TransientTransactionError) and withTransaction retries both to success',
    async () => {
      let attempts = 0;
      const increment = (delayMs: number) =>
        session().withTransaction(async (txn) => {
          attempts++;
          const current = await accounts.findOne({ _id: 'b' as never }, { session: txn });
          await sleep(delayMs);
          await accounts.updateOne(
            { _id: 'b' as never },
            { $set: { balance: (current?.balance as number) + 1 } },
            { session: txn },
          );
          await sleep(delayMs);
        });
      await Promise.all([increment(30), increment(45)]);
      expect((await accounts.findOne({ _id: 'b' as never }))?.balance).toBe(2);
      expect(attempts).toBeGreaterThan(2);
    },
  );

  test('a second writer of an uncommitted document gets WriteConflict with the retry label', async () => {
    const first = session();
    const second = session();
    first.startTransaction();
    second.startTransaction();
    await accounts.updateOne({ _id: 'a' as never }, { $inc: { balance: 1 } }, { session: first });
    const error = await serverError(() =>
      accounts.updateOne({ _id: 'a' as never }, { $inc: { balance: 1 } }, { session: second }),
    );
    expect(error.code).toBe(112);
    expect(error.hasErrorLabel('TransientTransactionError')).toBe(true);
    // The conflict aborted the second transaction: its commit is NoSuchTransaction.
    const commitError = await serverError(() => second.commitTransaction());
    expect(commitError.code).toBe(251);
    expect(commitError.hasErrorLabel('TransientTransactionError')).toBe(true);
    await first.commitTransaction();
    expect((await accounts.findOne({ _id: 'a' as never }))?.balance).toBe(101);
  });

  test('a committed write after the snapshot makes the transaction fail to commit with WriteConflict', async () => {
    const txn = session();
    txn.startTransaction();
    await accounts.updateOne({ _id: 'a' as never }, { $set: { balance: 1 } }, { session: txn });
    await accounts.updateOne({ _id: 'a' as never }, { $set: { balance: 2 } });
    const error = await serverError(() => txn.commitTransaction());
    expect(error.code).toBe(112);
    expect(error.hasErrorLabel('TransientTransactionError')).toBe(true);
    expect((await accounts.findOne({ _id: 'a' as never }))?.balance).toBe(2);
  });

  test('unique indexes are enforced inside a transaction and against concurrent commits', async () => {
    const users = fixture.db.collection('users');
    await users.createIndex({ email: 1 }, { unique: true });
    await users.insertOne({ email: 'taken' });
    const txn = session();
    txn.startTransaction();
    expect((await serverError(() => users.insertOne({ email: 'taken' }, { session: txn }))).code).toBe(11000);
    await txn.abortTransaction().catch(() => undefined);

    const first = session();
    const second = session();
    first.startTransaction();
    second.startTransaction();
    await users.insertOne({ email: 'race' }, { session: first });
    await users.insertOne({ email: 'race' }, { session: second });
    await first.commitTransaction();
    const error = await serverError(() => second.commitTransaction());
    expect(error.code).toBe(112);
    expect(await users.countDocuments({ email: 'race' })).toBe(1);
  });

  test('commit and abort of an unknown transaction are NoSuchTransaction; a repeated commit succeeds', async () => {
    const txn = session();
    const unknown = await serverError(() =>
      fixture.client
        .db('admin')
        .command({ commitTransaction: 1, txnNumber: Long.fromNumber(42), autocommit: false }, { session: txn }),
    );
    expect(unknown.code).toBe(251);
    expect(unknown.hasErrorLabel('TransientTransactionError')).toBe(true);

    txn.startTransaction();
    await accounts.insertOne({ _id: 'c' as never }, { session: txn });
    await txn.commitTransaction();
    await txn.commitTransaction(); // the driver sends commitTransaction again with the same txnNumber
    expect(await accounts.countDocuments({ _id: 'c' as never })).toBe(1);
  });

  test('ending the session (endSessions) aborts its open transaction', async () => {
    const txn = session();
    txn.startTransaction();
    await accounts.insertOne({ _id: 'c' as never }, { session: txn });
    await fixture.client.db('admin').command({ endSessions: [txn.id] });
    expect((await serverError(() => txn.commitTransaction())).code).toBe(251);
    expect(await accounts.countDocuments({ _id: 'c' as never })).toBe(0);
  });

  test('an idle transaction is aborted after the timeout', async () => {
    const txn = session();
    txn.startTransaction();
    await accounts.insertOne({ _id: 'c' as never }, { session: txn });
    await sleep(1500);
    expect((await serverError(() => txn.commitTransaction())).code).toBe(251);
    expect(await accounts.countDocuments({ _id: 'c' as never })).toBe(0);
  });
});

describe('embedded mongo: transactions with a dataDir', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'embedded-txn-'));
  });
  afterEach(() => rm(dataDir, { recursive: true, force: true }));

  test('a committed transaction is one journal record and survives a restart', async () => {
    const first = await startFixture({ dataDir });
    const session = first.client.startSession();
    await session.withTransaction(async (txn) => {
      await first.db.collection('orders').insertOne({ _id: 1 as never, total: 10 }, { session: txn });
      await first.db.collection('orders').insertOne({ _id: 2 as never, total: 20 }, { session: txn });
      await first.db.collection('stock').insertOne({ _id: 'widget' as never, count: 3 }, { session: txn });
    });
    await session.endSession();
    const [journal] = (await readdir(dataDir)).filter((name) => name.startsWith('journal-'));
    const records = scanRecords(await readFile(path.join(dataDir, journal))).payloads.map(decodeRecord);
    const last = records[records.length - 1];
    expect(last.events.filter((event) => event.type === 'insert').map((event) => event.collection)).toEqual([
      'orders',
      'orders',
      'stock',
    ]);
    // Its change-stream records are in the same record: one durable write for the data and the history.
    expect(last.history.map((entry) => [entry.operationType, entry.coll, entry.txnOpIndex])).toEqual([
      ['insert', 'orders', 0],
      ['insert', 'orders', 1],
      ['insert', 'stock', 2],
    ]);
    await stopFixture(first);

    const second = await startFixture({ dataDir });
    try {
      expect(await second.db.collection('orders').countDocuments()).toBe(2);
      expect(await second.db.collection('stock').countDocuments()).toBe(1);
    } finally {
      await stopFixture(second);
    }
  });
});
