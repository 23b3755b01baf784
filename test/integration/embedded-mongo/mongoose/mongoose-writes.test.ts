import mongoose, { Schema, type Model } from 'mongoose';
import { startMongoose, stopMongoose, type MongooseFixture } from './mongoose-fixture';

interface Account {
  owner: string;
  balance: number;
}

describe('Mongoose on the embedded server: bulk writes and transactions', () => {
  let f: MongooseFixture;
  let Accounts: Model<Account>;
  beforeAll(async () => {
    f = await startMongoose('mongoose_writes');
    Accounts = f.connection.model<Account>(
      'Account',
      new Schema<Account>({
        owner: { type: String, unique: true, required: true },
        balance: { type: Number, default: 0 },
      }),
    );
    await Accounts.init();
  });
  afterAll(() => stopMongoose(f));
  beforeEach(async () => {
    await Accounts.deleteMany({});
  });

  const owners = async () => (await Accounts.find().sort({ owner: 1 }).lean()).map((account) => account.owner);

  test('bulkWrite runs mixed operations and reports each kind of count', async () => {
    await Accounts.create([
      { owner: 'ann', balance: 10 },
      { owner: 'bob', balance: 20 },
      { owner: 'cid', balance: 30 },
    ]);
    const result = await Accounts.bulkWrite([
      { insertOne: { document: { owner: 'dee', balance: 40 } } },
      { updateOne: { filter: { owner: 'ann' }, update: { $inc: { balance: 5 } } } },
      { updateMany: { filter: { balance: { $gte: 20 } }, update: { $inc: { balance: 1 } } } },
      { replaceOne: { filter: { owner: 'cid' }, replacement: { owner: 'cid', balance: 0 } } },
      { deleteOne: { filter: { owner: 'bob' } } },
      { updateOne: { filter: { owner: 'eve' }, update: { $set: { balance: 7 } }, upsert: true } },
    ]);
    expect(result).toMatchObject({
      insertedCount: 1,
      matchedCount: 5,
      modifiedCount: 5,
      deletedCount: 1,
      upsertedCount: 1,
    });
    expect(Object.keys(result.upsertedIds)).toEqual(['5']);
    const balances = Object.fromEntries(
      (await Accounts.find().lean()).map((account) => [account.owner, account.balance]),
    );
    expect(balances).toEqual({ ann: 15, cid: 0, dee: 41, eve: 7 });
  });

  test(
    'insertMany with a duplicate: ordered stops at it, unordered ' + 'inserts the rest; both fail with E11000',
    async () => {
      await Accounts.create({ owner: 'ann' });
      const ordered = await Accounts.insertMany([{ owner: 'bob' }, { owner: 'ann' }, { owner: 'cid' }]).catch(
        (error: unknown) => error,
      );
      expect(ordered).toBeInstanceOf(mongoose.mongo.MongoBulkWriteError);
      expect(ordered).toMatchObject({ code: 11000 });
      expect((ordered as mongoose.mongo.MongoBulkWriteError).writeErrors).toMatchObject([{ index: 1, code: 11000 }]);
      expect(await owners()).toEqual(['ann', 'bob']);

      const unordered = await Accounts.insertMany(
        [{ owner: 'dee' }, { owner: 'bob' }, { owner: 'eve' }, { owner: 'ann' }],
        { ordered: false },
      ).catch((error: unknown) => error);
      expect(unordered).toBeInstanceOf(mongoose.mongo.MongoBulkWriteError);
      const bulkError = unordered as mongoose.mongo.MongoBulkWriteError & { insertedDocs: Account[] };
      expect(bulkError.writeErrors).toMatchObject([
        { index: 1, code: 11000 },
        { index: 3, code: 11000 },
      ]);
      expect(bulkError.insertedDocs.map((doc) => doc.owner)).toEqual(['dee', 'eve']);
      expect(await owners()).toEqual(['ann', 'bob', 'dee', 'eve']);
    },
  );

  test('connection.transaction() commits, and an error inside it aborts every write', async () => {
    await Accounts.create([
      { owner: 'ann', balance: 100 },
      { owner: 'bob', balance: 0 },
    ]);
    await f.connection.transaction(async (session) => {
      await Accounts.updateOne({ owner: 'ann' }, { $inc: { balance: -30 } }, { session });
      await Accounts.updateOne({ owner: 'bob' }, { $inc: { balance: 30 } }, { session });
      await Accounts.create([{ owner: 'cid', balance: 1 }], { session });
      // Outside the transaction nothing is visible before the commit.
      expect((await Accounts.findOne({ owner: 'ann' }).lean())?.balance).toBe(100);
      expect((await Accounts.findOne({ owner: 'ann' }).session(session).lean())?.balance).toBe(70);
    });
    const committed = Object.fromEntries(
      (await Accounts.find().lean()).map((account) => [account.owner, account.balance]),
    );
    expect(committed).toEqual({ ann: 70, bob: 30, cid: 1 });

    const aborted = f.connection.transaction(async (session) => {
      await Accounts.updateOne({ owner: 'ann' }, { $inc: { balance: -70 } }, { session });
      await Accounts.create([{ owner: 'dee', balance: 70 }], { session });
      throw new Error('insufficient approval');
    });
    await expect(aborted).rejects.toThrow('insufficient approval');
    const after = Object.fromEntries((await Accounts.find().lean()).map((account) => [account.owner, account.balance]));
    expect(after).toEqual(committed);

    const duplicateInside = await f.connection
      .transaction(async (session) => {
        await Accounts.updateOne({ owner: 'bob' }, { $inc: { balance: 5 } }, { session });
        await Accounts.create([{ owner: 'ann' }], { session });
      })
      .catch((error: unknown) => error);
    expect(duplicateInside).toMatchObject({ code: 11000 });
    expect((await Accounts.findOne({ owner: 'bob' }).lean())?.balance).toBe(30);
  });
});
