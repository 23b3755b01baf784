import type { Document } from 'mongodb';
import { startFixture, stopFixture, type Fixture } from './embedded-mongo-fixture';

function winningStage(explained: Document): Document {
  return (explained.queryPlanner as Document).winningPlan as Document;
}

describe('embedded mongo: collMod, setParameter and getParameter', () => {
  let fixture: Fixture;
  beforeAll(async () => {
    fixture = await startFixture();
  });
  afterAll(() => stopFixture(fixture));

  test(
    'collMod hides an index: mongod answers hidden_old/hidden_new, lists it ' +
      'hidden, the planner ignores it and a hint to it fails',
    async () => {
      const users = fixture.db.collection('users');
      await users.createIndex({ email: 1 }, { unique: true });
      await users.insertMany([{ email: 'a' }, { email: 'b' }]);
      expect(JSON.stringify(winningStage(await users.find({ email: 'a' }).explain()))).toContain('email_1');

      const reply = await fixture.db.command({ collMod: 'users', index: { name: 'email_1', hidden: true } });
      expect(reply).toMatchObject({ hidden_old: false, hidden_new: true, ok: 1 });
      expect((await users.listIndexes().toArray()).find((index) => index.name === 'email_1')).toMatchObject({
        hidden: true,
        unique: true,
      });
      expect(JSON.stringify(winningStage(await users.find({ email: 'a' }).explain()))).not.toContain('email_1');
      await expect(users.find({ email: 'a' }).hint('email_1').toArray()).rejects.toMatchObject({ code: 2 });
      // A hidden index is still maintained and still enforces uniqueness.
      await expect(users.insertOne({ email: 'a' })).rejects.toMatchObject({ code: 11000 });
      await users.insertOne({ email: 'c' });

      const unhide = await fixture.db.command({ collMod: 'users', index: { keyPattern: { email: 1 }, hidden: false } });
      expect(unhide).toMatchObject({ hidden_old: true, hidden_new: false });
      expect((await users.listIndexes().toArray()).find((index) => index.name === 'email_1')).not.toHaveProperty(
        'hidden',
      );
      expect(await users.find({ email: 'c' }).hint('email_1').toArray()).toHaveLength(1);
    },
  );

  test('createIndex with hidden: true creates an index the planner does not use', async () => {
    const hiddenAtStart = fixture.db.collection('hiddenAtStart');
    await hiddenAtStart.createIndex({ n: 1 }, { hidden: true });
    await hiddenAtStart.insertOne({ n: 1 });
    expect(JSON.stringify(winningStage(await hiddenAtStart.find({ n: 1 }).explain()))).toContain('COLLSCAN');
  });

  test('collMod changes a TTL index expireAfterSeconds and answers expireAfterSeconds_old/_new', async () => {
    const sessions = fixture.db.collection('sessions');
    await sessions.createIndex({ at: 1 }, { expireAfterSeconds: 3600 });
    const reply = await fixture.db.command({
      collMod: 'sessions',
      index: { keyPattern: { at: 1 }, expireAfterSeconds: 60 },
    });
    expect(reply).toMatchObject({ expireAfterSeconds_old: 3600, expireAfterSeconds_new: 60, ok: 1 });
    expect((await sessions.listIndexes().toArray()).find((index) => index.name === 'at_1')).toMatchObject({
      expireAfterSeconds: 60,
    });
  });

  test(
    'collMod errors as mongod: missing collection (26), missing index ' + '(27), unknown field (40415), hiding _id (2)',
    async () => {
      await expect(fixture.db.command({ collMod: 'nothing', validator: {} })).rejects.toMatchObject({
        code: 26,
        codeName: 'NamespaceNotFound',
      });
      await expect(
        fixture.db.command({ collMod: 'users', index: { name: 'nope', hidden: true } }),
      ).rejects.toMatchObject({ code: 27, codeName: 'IndexNotFound' });
      await expect(fixture.db.command({ collMod: 'users', frobnicate: true })).rejects.toMatchObject({ code: 40415 });
      await expect(
        fixture.db.command({ collMod: 'users', index: { name: '_id_', hidden: true } }),
      ).rejects.toMatchObject({ code: 2 });
    },
  );

  test('collMod sets validator, validationLevel and validationAction, and listCollections shows them', async () => {
    const notes = await fixture.db.createCollection('notes');
    await fixture.db.command({
      collMod: 'notes',
      validator: { text: { $type: 'string' } },
      validationLevel: 'strict',
      validationAction: 'error',
    });
    const [info] = await fixture.db.listCollections({ name: 'notes' }, { nameOnly: false }).toArray();
    expect(info.options).toEqual({
      validator: { text: { $type: 'string' } },
      validationLevel: 'strict',
      validationAction: 'error',
    });
    await expect(notes.insertOne({ text: 1 })).rejects.toMatchObject({ code: 121 });
    await fixture.db.command({ collMod: 'notes', validationAction: 'warn' });
    await notes.insertOne({ text: 1 });
    await expect(fixture.db.command({ collMod: 'notes', validationAction: 'explode' })).rejects.toMatchObject({
      code: 2,
    });
  });

  test('collMod turns on changeStreamPreAndPostImages, which listCollections then shows', async () => {
    await fixture.db.command({ collMod: 'notes', changeStreamPreAndPostImages: { enabled: true } });
    const [info] = await fixture.db.listCollections({ name: 'notes' }, { nameOnly: false }).toArray();
    expect(info.options).toMatchObject({ changeStreamPreAndPostImages: { enabled: true } });
  });

  test('setParameter answers { was } and getParameter reads the new value, as mongod does', async () => {
    const admin = fixture.client.db('admin');
    const before = await admin.command({ getParameter: 1, notablescan: 1 });
    expect(before).toMatchObject({ notablescan: false, ok: 1 });
    expect(await admin.command({ setParameter: 1, notablescan: true })).toMatchObject({ was: false, ok: 1 });
    expect(await admin.command({ getParameter: 1, notablescan: 1 })).toMatchObject({ notablescan: true });
    await admin.command({ setParameter: 1, notablescan: false });
    expect(await admin.command({ setParameter: 1, logLevel: 1 })).toMatchObject({ was: 0 });
    expect(await admin.command({ getParameter: '*' })).toMatchObject({
      logLevel: 1,
      featureCompatibilityVersion: { version: expect.any(String) },
    });
  });

  test('setParameter refuses an unknown parameter with code 72 (InvalidOptions)', async () => {
    await expect(fixture.client.db('admin').command({ setParameter: 1, noSuchParameter: 1 })).rejects.toMatchObject({
      code: 72,
      message: expect.stringContaining('attempted to set unrecognized parameter [noSuchParameter]'),
    });
  });
});
