import type { Db } from 'mongodb';
import { DatabaseService } from '../../../src/adapters/mongo';
import { createApp } from '../../../src/application/app/application';
import { startMongoTestServer, type MongoTestServer } from '../../helpers/mongo-test-server';

let server: MongoTestServer;
let db: Db;
let users: DatabaseService;
let messages: DatabaseService;
let app: ReturnType<typeof createApp>;
let ids: Record<string, any>;
let collections: { users: string; messages: string };

beforeAll(async () => {
  server = await startMongoTestServer();
  db = server.db();
  const userNames = server.uniqueName('users');
  const messageNames = server.uniqueName('messages');
  users = new DatabaseService({ Model: Promise.resolve(db.collection(userNames)), multi: true });
  messages = new DatabaseService({ Model: Promise.resolve(db.collection(messageNames)), multi: true });
  app = createApp();
  app.use('users', users);
  app.use('messages', messages);
  const [ada, bob, cy] = (await app
    .service('users')
    .create([{ name: 'Ada' }, { name: 'Bob' }, { name: 'Cy' }])) as any[];
  await app.service('users').patch(bob._id, { managerId: ada._id });
  await app.service('users').patch(cy._id, { managerId: bob._id });
  ids = { ada: ada._id, bob: bob._id, cy: cy._id };
  await app.service('messages').create([
    { text: 'hello', userId: ada._id, tags: ['a', 'b'], n: 1 },
    { text: 'hi', userId: bob._id, tags: ['b'], n: 2 },
    { text: 'hey', userId: ada._id, tags: [], n: 3 },
  ]);
  collections = { users: userNames, messages: messageNames };
});

afterAll(async () => {
  await server?.close();
});

const lookupUser = () => ({
  $lookup: { from: collections.users, localField: 'userId', foreignField: '_id', as: 'user' },
});

describe('DatabaseService aggregation pipeline', () => {
  it('makeServicePipeline builds $match, $sort, $skip, $limit then $project, ignoring params.pipeline', () => {
    const stages = messages.makeServicePipeline({
      query: { n: { $gt: 1 }, $sort: { n: -1 }, $skip: 1, $limit: 2, $select: ['text'] },
      pipeline: [{ $unwind: '$tags' }],
    });
    expect(stages).toEqual([
      { $match: { n: { $gt: 1 } } },
      { $sort: { n: -1, _id: 1 } },
      { $skip: 1 },
      { $limit: 2 },
      { $project: { _id: 1, text: 1 } },
    ]);
  });

  it('appends params.pipeline stages after the query stages ($lookup between messages and users)', async () => {
    const found = (await app
      .service('messages')
      .find({ query: { $sort: { n: 1 } }, pipeline: [lookupUser()] })) as any[];
    expect(found.map((message) => [message.text, message.user[0]?.name])).toEqual([
      ['hello', 'Ada'],
      ['hi', 'Bob'],
      ['hey', 'Ada'],
    ]);
  });

  it('applies $limit before appended stages (the query stages come first)', async () => {
    const found = (await app
      .service('messages')
      .find({ query: { $sort: { n: 1 }, $limit: 1 }, pipeline: [{ $unwind: '$tags' }] })) as any[];
    expect(found.map((message) => message.tags)).toEqual(['a', 'b']);
  });

  it('places the query stages at a { $service: {} } stage, so the query sees the earlier stages', async () => {
    const found = (await app.service('messages').find({
      query: { 'user.name': 'Ada', $sort: { n: -1 } },
      pipeline: [
        lookupUser(),
        { $unwind: { path: '$user' } },
        { $service: {} },
        { $addFields: { author: '$user.name' } },
      ],
    })) as any[];
    expect(found.map((message) => [message.text, message.author])).toEqual([
      ['hey', 'Ada'],
      ['hello', 'Ada'],
    ]);
  });

  it('$unwind with path multiplies documents after the query', async () => {
    const found = (await app
      .service('messages')
      .find({ query: { $sort: { n: 1 } }, pipeline: [{ $unwind: { path: '$tags' } }] })) as any[];
    expect(found.map((message) => `${message.text}:${message.tags}`)).toEqual(['hello:a', 'hello:b', 'hi:b']);
  });

  it('$addFields and $replaceRoot shape the results', async () => {
    const found = (await app.service('messages').find({
      query: { n: { $lte: 2 }, $sort: { n: 1 } },
      pipeline: [
        { $addFields: { double: { $multiply: ['$n', 2] } } },
        { $replaceRoot: { newRoot: { label: '$text', double: '$double' } } },
      ],
    })) as any[];
    expect(found).toEqual([
      { label: 'hello', double: 2 },
      { label: 'hi', double: 4 },
    ]);
  });

  it('$graphLookup walks the manager chain', async () => {
    const found = (await app.service('users').find({
      query: { name: 'Cy' },
      pipeline: [
        {
          $graphLookup: {
            from: collections.users,
            startWith: '$managerId',
            connectFromField: 'managerId',
            connectToField: '_id',
            as: 'chain',
          },
        },
      ],
    })) as any[];
    expect(found).toHaveLength(1);
    expect(found[0].chain.map((user: any) => user.name).sort()).toEqual(['Ada', 'Bob']);
  });

  it('$select projects the final documents, keeping the id and fields added by the pipeline', async () => {
    const found = (await app
      .service('messages')
      .find({ query: { n: 1, $select: ['user'] }, pipeline: [lookupUser()] })) as any[];
    expect(Object.keys(found[0]).sort()).toEqual(['_id', 'user']);
    expect(found[0].user[0].name).toBe('Ada');
  });

  it('counts through the same pipeline when paginating (total follows $unwind and the query)', async () => {
    const page = (await app.service('messages').find({
      query: { $limit: 2, $sort: { n: 1 } },
      paginate: { default: 10 },
      pipeline: [{ $unwind: '$tags' }],
    })) as any;
    // $limit applies to the query stages (2 messages), the total counts what the pipeline yields for all matches.
    expect(page.total).toBe(3);
    expect(page.data.map((message: any) => message.tags)).toEqual(['a', 'b', 'b']);
  });

  it('counts with $service placement and a query on looked-up fields', async () => {
    const page = (await app.service('messages').find({
      query: { 'user.name': 'Bob', $limit: 0 },
      paginate: { default: 10 },
      pipeline: [lookupUser(), { $service: {} }],
    })) as any;
    expect(page).toEqual({ total: 1, limit: 0, skip: 0, data: [] });
  });

  it('get accepts a pipeline too', async () => {
    const message = await app
      .service('messages')
      .find({ query: { n: 2 } })
      .then((found: any[]) => found[0]);
    const got = await app.service('messages').get(message._id, { pipeline: [lookupUser()] });
    expect(got.user[0].name).toBe('Bob');
  });

  it('aggregateRaw returns the raw cursor of the merged pipeline', async () => {
    const cursor = await messages.aggregateRaw({ query: { n: { $gte: 2 } }, pipeline: [{ $count: 'n' }] });
    expect(await cursor.toArray()).toEqual([{ n: 2 }]);
  });

  it('rejects two $service stages', async () => {
    await expect(
      app.service('messages').find({ pipeline: [{ $service: {} }, { $service: {} }] }),
    ).rejects.toMatchObject({ code: 400 });
  });

  it('keeps the ids as ObjectIds in results and serializes them as hex strings', async () => {
    const [user] = (await app.service('users').find({ query: { name: 'Ada' } })) as any[];
    expect(user._id.toHexString()).toBe(ids.ada.toHexString());
    expect(JSON.parse(JSON.stringify(user))._id).toBe(ids.ada.toHexString());
  });
});
