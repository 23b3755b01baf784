import { DatabaseService } from '../../../src/adapters/mongo';
import { createApp } from '../../../src/application/app/application';
import { startMongoTestServer, type MongoTestServer } from '../../helpers/mongo-test-server';

let server: MongoTestServer;

beforeAll(async () => {
  server = await startMongoTestServer();
});

afterAll(async () => {
  await server?.close();
});

async function twoServices() {
  const db = server.db();
  const users = db.collection(server.uniqueName('users'));
  const messages = db.collection(server.uniqueName('messages'));
  // Collections must exist before a transaction writes to them on MongoDB < 4.4.
  await db.createCollection(users.collectionName);
  await db.createCollection(messages.collectionName);
  const app = createApp();
  app.use('users', new DatabaseService({ Model: Promise.resolve(users), paginate: { default: 10 } }));
  app.use('messages', new DatabaseService({ Model: Promise.resolve(messages), multi: true }));
  return { users: app.service('users'), messages: app.service('messages') };
}

// With MONGODB_URL, that server must be a replica set or mongos (a standalone refuses transactions).

describe('DatabaseService transactions through params.database.session', () => {
  it('commits writes of two services together; reads inside see them, outside not until commit', async () => {
    const { users, messages } = await twoServices();
    const session = server.client.startSession();
    try {
      session.startTransaction();
      const params = { database: { session } };
      const user = await users.create({ name: 'Ada' }, params);
      expect(user.name).toBe('Ada');
      await messages.create({ text: 'hi', userId: user._id }, params);
      expect((await users.find(params)).total).toBe(1);
      await users.create({ name: 'Bo' }, params);
      // A full page needs the count; a short one (past a skip too) implies the total.
      expect(await users.find({ ...params, query: { $limit: 1 } })).toMatchObject({
        total: 2,
        data: [{ name: 'Ada' }],
      });
      expect(await users.find({ ...params, query: { $limit: 1, $skip: 1 } })).toMatchObject({
        total: 2,
        data: [{ name: 'Bo' }],
      });
      expect(await users.find({ ...params, query: { $limit: 5, $skip: 4 } })).toMatchObject({ total: 2, data: [] });
      expect(await users.find()).toMatchObject({ total: 0 });
      await session.commitTransaction();
      expect((await users.find()).total).toBe(2);
      expect(await messages.find({ query: { userId: user._id } })).toHaveLength(1);
    } finally {
      await session.endSession();
    }
  });

  it('aborting rolls back creates, patches and removes of both services', async () => {
    const { users, messages } = await twoServices();
    const kept = await users.create({ name: 'Kept' });
    await messages.create({ text: 'old' });
    const session = server.client.startSession();
    try {
      session.startTransaction();
      const params = { database: { session } };
      await users.create({ name: 'Gone' }, params);
      await users.patch(kept._id, { name: 'Changed' }, params);
      await messages.remove(null, { ...params, query: {} });
      await session.abortTransaction();
    } finally {
      await session.endSession();
    }
    expect((await users.find()).data.map((user: any) => user.name)).toEqual(['Kept']);
    expect((await messages.find()).map((message: any) => message.text)).toEqual(['old']);
  });
});
