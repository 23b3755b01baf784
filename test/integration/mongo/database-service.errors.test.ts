import { createServer } from 'node:net';
import { MongoClient } from 'mongodb';
import { DatabaseService, withIndexes } from '../../../src/adapters/mongo';
import { createApp } from '../../../src/application/app/application';
import { startMongoTestServer, type MongoTestServer } from '../../helpers/mongo-test-server';

let server: MongoTestServer;

beforeAll(async () => {
  server = await startMongoTestServer();
});

afterAll(async () => {
  await server?.close();
});

function usersService() {
  const collection = server.db().collection(server.uniqueName('users'));
  const app = createApp();
  // The documented way: the unique index is created inside the Model promise chain.
  app.use(
    'users',
    new DatabaseService({ Model: withIndexes(collection, [{ key: { email: 1 }, unique: true }]), multi: true }),
  );
  return { service: app.service('users'), collection };
}

/** A loopback port with nothing listening on it. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describe('DatabaseService errors', () => {
  it('a duplicate key is a 409 Conflict naming only the fields', async () => {
    const { service, collection } = usersService();
    await service.create({ email: 'a@example.com', name: 'A' });
    const error = await service.create({ email: 'a@example.com', name: 'B' }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'Conflict', code: 409, data: { fields: ['email'] } });
    const json = JSON.stringify(error.toJSON());
    for (const leak of ['E11000', collection.collectionName, server.db().databaseName, 'email_1', 'a@example.com'])
      expect(json).not.toContain(leak);
    expect(error.cause).toBeDefined();
  });

  it('duplicates through insertMany, patch and update are 409 too', async () => {
    const { service } = usersService();
    const [, second] = (await service.create([{ email: 'x@example.com' }, { email: 'y@example.com' }])) as any[];
    await expect(service.create([{ email: 'z@example.com' }, { email: 'x@example.com' }])).rejects.toMatchObject({
      code: 409,
      data: { fields: ['email'] },
    });
    await expect(service.patch(second._id, { email: 'x@example.com' })).rejects.toMatchObject({
      code: 409,
      data: { fields: ['email'] },
    });
    await expect(service.update(second._id, { email: 'x@example.com' })).rejects.toMatchObject({
      code: 409,
      data: { fields: ['email'] },
    });
  });

  it('an unreachable database is a 503 Unavailable', async () => {
    const client = new MongoClient(`mongodb://127.0.0.1:${await closedPort()}/`, {
      serverSelectionTimeoutMS: 300,
      connectTimeoutMS: 300,
    });
    try {
      const service = new DatabaseService({ Model: Promise.resolve(client.db('x').collection('y')) });
      const error: any = await service.find().catch((caught: unknown) => caught);
      expect(error).toMatchObject({ name: 'Unavailable', code: 503 });
      expect(JSON.stringify(error.toJSON())).not.toContain('127.0.0.1');
    } finally {
      await client.close();
    }
  });

  it('a Model promise that rejects with a connection error is a 503 and never an unhandled rejection', async () => {
    const client = new MongoClient(`mongodb://127.0.0.1:${await closedPort()}/`, {
      serverSelectionTimeoutMS: 300,
      connectTimeoutMS: 300,
    });
    try {
      const Model = client.connect().then((connected) => connected.db('x').collection('y'));
      const service = new DatabaseService({ Model });
      await expect(service.get('568225fbfe21222432e836ff')).rejects.toMatchObject({ name: 'Unavailable', code: 503 });
    } finally {
      await client.close();
    }
  });
});
