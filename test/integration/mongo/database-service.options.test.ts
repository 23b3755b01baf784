import { MongoClient, type CommandStartedEvent, type Db } from 'mongodb';
import { DatabaseService } from '../../../src/adapters/mongo';
import { createApp } from '../../../src/application/app/application';
import { startMongoTestServer, type MongoTestServer } from '../../helpers/mongo-test-server';

let server: MongoTestServer;
let monitored: MongoClient;
let db: Db;
const commands: CommandStartedEvent[] = [];

beforeAll(async () => {
  server = await startMongoTestServer();
  // A second client that records every command, to see which driver calls a method makes.
  monitored = new MongoClient(server.url, { monitorCommands: true, serverSelectionTimeoutMS: 5_000 });
  monitored.on('commandStarted', (event) => commands.push(event));
  await monitored.connect();
  db = monitored.db(server.db().databaseName);
});

afterAll(async () => {
  await monitored?.close();
  await server?.close();
});

async function build(options: Partial<ConstructorParameters<typeof DatabaseService>[0]> = {}, records: object[] = []) {
  const name = server.uniqueName('options');
  const collection = db.collection(name);
  if (records.length > 0) await collection.insertMany(records.map((record) => ({ ...record })));
  const app = createApp();
  app.use('items', new DatabaseService({ Model: Promise.resolve(collection), multi: true, ...options }));
  commands.length = 0;
  return { service: app.service('items'), collection, name };
}

const onCollection = (name: string) => commands.filter((event) => Object.values(event.command).includes(name));
const commandNames = (name: string) => onCollection(name).map((event) => event.commandName);
const numbers = (count: number) =>
  Array.from({ length: count }, (_item, index) => ({ n: index, even: index % 2 === 0 }));

describe('DatabaseService counts and pagination', () => {
  it('counts exactly with countDocuments by default, with the same filter', async () => {
    const { service, name } = await build({ paginate: { default: 2 } }, numbers(5));
    const page = await service.find({ query: { even: true } });
    expect(page).toMatchObject({ total: 3, limit: 2, skip: 0 });
    expect(page.data).toHaveLength(2);
    expect(commandNames(name)).not.toContain('count');
  });

  it('useEstimatedDocumentCount uses the estimate only when the query has no conditions', async () => {
    const { service, name } = await build({ paginate: { default: 2 }, useEstimatedDocumentCount: true }, numbers(5));
    expect((await service.find({ query: { $sort: { n: 1 } } })).total).toBe(5);
    expect(commandNames(name)).toContain('count');
    commands.length = 0;
    // With a condition the estimate would ignore it; the exact count is used instead.
    expect((await service.find({ query: { even: true } })).total).toBe(3);
    expect(commandNames(name)).not.toContain('count');
  });

  it('$limit: 0 only counts', async () => {
    const { service, name } = await build({ paginate: { default: 2 } }, numbers(5));
    expect(await service.find({ query: { $limit: 0, even: false } })).toEqual({
      total: 2,
      limit: 0,
      skip: 0,
      data: [],
    });
    expect(commandNames(name)).toEqual(['aggregate']);
    expect(JSON.stringify(onCollection(name)[0].command.pipeline)).toContain('$group');
  });

  it('runs find through aggregate by default and through find when params.database is set', async () => {
    const { service, name } = await build({}, numbers(3));
    await service.find({ query: { $sort: { n: -1 }, $limit: 2 } });
    expect(commandNames(name)).toEqual(['aggregate']);
    commands.length = 0;
    const found = (await service.find({
      query: { $sort: { n: -1 }, $skip: 1, $select: ['n'] },
      database: { comment: 'from-params' },
    })) as any[];
    expect(found.map((record) => record.n)).toEqual([1, 0]);
    expect(Object.keys(found[0]).sort()).toEqual(['_id', 'n']);
    const [find] = onCollection(name);
    expect(find.commandName).toBe('find');
    expect(find.command.comment).toBe('from-params');
  });

  it('findRaw returns a cursor with params.database as the find options', async () => {
    const { service } = await build({}, numbers(3));
    const cursor = await (service as unknown as DatabaseService).findRaw({
      query: { n: { $gt: 0 } },
      database: { projection: { n: 1, _id: 0 } },
    });
    expect(await cursor.toArray()).toEqual([{ n: 1 }, { n: 2 }]);
  });
});

describe('DatabaseService params.database', () => {
  it('passes the session to every driver call of a method (re-reads and counts included)', async () => {
    const { service, name } = await build({ paginate: { default: 10 } });
    const session = monitored.startSession();
    try {
      const params = { database: { session } };
      const created = await service.create({ n: 1 }, params);
      await service.create([{ n: 2 }, { n: 3 }], params);
      await service.find({ ...params, query: { n: { $gte: 1 } } });
      await service.get(created._id, params);
      await service.patch(created._id, { m: 1 }, params);
      await service.patch(null, { m: 2 }, { ...params, query: { n: { $gte: 2 } } });
      await service.update(created._id, { n: 1 }, params);
      await service.remove(created._id, params);
      await service.remove(null, { ...params, query: { n: 2 } });
      const calls = onCollection(name);
      // A single create no longer reads its record back (it answers what it inserted): 13 calls.
      expect(calls.length).toBeGreaterThanOrEqual(13);
      const sessionId = session.id!.id.toString('hex');
      for (const call of calls)
        expect({ command: call.commandName, lsid: call.command.lsid?.id?.toString('hex') }).toEqual({
          command: call.commandName,
          lsid: sessionId,
        });
    } finally {
      await session.endSession();
    }
  });
});

describe('DatabaseService Model', () => {
  it('accepts a collection promise that is not yet resolved (an async function called without await)', async () => {
    const name = server.uniqueName('late');
    const connectLater = async () => {
      await new Promise((resolve) => setImmediate(resolve));
      return db.collection(name);
    };
    const service = new DatabaseService({ Model: connectLater() });
    const created = (await service.create({ n: 1 })) as any;
    expect((await service.get(created._id)).n).toBe(1);
  });

  it('params.adapter.Model overrides the collection for one call', async () => {
    const main = await build({}, [{ n: 1 }]);
    const other = db.collection(server.uniqueName('other'));
    await other.insertOne({ n: 99 });
    const found = (await main.service.find({ adapter: { Model: Promise.resolve(other) } })) as any[];
    expect(found.map((record) => record.n)).toEqual([99]);
    expect(((await main.service.find()) as any[]).map((record) => record.n)).toEqual([1]);
    const service = main.service as unknown as DatabaseService;
    expect((await service.getModel({ adapter: { Model: other } })).collectionName).toBe(other.collectionName);
  });

  it('refuses to be built without a Model', () => {
    expect(() => new DatabaseService(undefined as any)).toThrow(/Model/);
    expect(() => new DatabaseService({} as any)).toThrow(/Model/);
  });
});
