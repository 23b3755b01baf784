import { ObjectId as BsonObjectId } from 'bson';
import { ObjectId } from 'mongodb';
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

function build(options: Partial<ConstructorParameters<typeof DatabaseService>[0]> = {}) {
  const collection = server.db().collection(server.uniqueName('ids'));
  const app = createApp();
  app.use('items', new DatabaseService({ Model: Promise.resolve(collection), multi: true, ...options }));
  return { service: app.service('items'), collection };
}

describe('DatabaseService ids', () => {
  it('converts 24-hex strings in $in, $nin and $ne on _id, also inside $or and $and', async () => {
    const { service } = build();
    const [a, b, c] = (await service.create([{ n: 1 }, { n: 2 }, { n: 3 }])) as any[];
    const hex = (record: any) => record._id.toHexString();
    const byIn = (await service.find({ query: { _id: { $in: [hex(a), hex(b)] }, $sort: { n: 1 } } })) as any[];
    expect(byIn.map((record) => record.n)).toEqual([1, 2]);
    const byNin = (await service.find({ query: { _id: { $nin: [hex(a)] }, $sort: { n: 1 } } })) as any[];
    expect(byNin.map((record) => record.n)).toEqual([2, 3]);
    const byNe = (await service.find({ query: { _id: { $ne: hex(c) }, $sort: { n: 1 } } })) as any[];
    expect(byNe.map((record) => record.n)).toEqual([1, 2]);
    const byOr = (await service.find({
      query: { $or: [{ _id: hex(a) }, { _id: { $in: [hex(c)] } }], $sort: { n: 1 } },
    })) as any[];
    expect(byOr.map((record) => record.n)).toEqual([1, 3]);
    const byAnd = (await service.find({
      query: { $and: [{ _id: { $ne: hex(a) } }, { _id: { $nin: [hex(b)] } }] },
    })) as any[];
    expect(byAnd.map((record) => record.n)).toEqual([3]);
    const plain = (await service.find({ query: { _id: hex(b) } })) as any[];
    expect(plain.map((record) => record.n)).toEqual([2]);
  });

  it('accepts ObjectId instances as ids, also from another bson copy', async () => {
    const { service } = build();
    const created = (await service.create({ n: 1 })) as any;
    expect(created._id).toBeInstanceOf(ObjectId);
    expect((await service.get(created._id)).n).toBe(1);
    expect((await service.get(new BsonObjectId(created._id.toHexString()) as any)).n).toBe(1);
    expect((await service.get(created._id.toHexString())).n).toBe(1);
  });

  it.each(['get', 'update', 'patch', 'remove'])(
    '%s with an id that is not a valid ObjectId is a 404, never a 500',
    async (method) => {
      const { service } = build();
      await service.create({ n: 1 });
      for (const id of ['nope', '123', 'lessonKTDA03', 'zzzzzzzzzzzzzzzzzzzzzzzz', 42]) {
        const call =
          method === 'get' ? service.get(id) : method === 'remove' ? service.remove(id) : service[method](id, { n: 2 });
        await expect(call).rejects.toMatchObject({ name: 'NotFound', code: 404 });
      }
    },
  );

  it.each(['get', 'update', 'patch', 'remove'])('%s with an object or an array as id is a 400', async (method) => {
    const { service } = build();
    for (const id of [{ $ne: null }, ['a'], { _bsontype: 'ObjectId', id: 'x' }]) {
      const call =
        method === 'get' ? service.get(id) : method === 'remove' ? service.remove(id) : service[method](id, { n: 2 });
      await expect(call).rejects.toMatchObject({ name: 'BadRequest', code: 400 });
    }
  });

  it('stores a 24-hex _id given on create as an ObjectId and keeps other string ids as strings', async () => {
    const { service, collection } = build();
    const hex = new ObjectId().toHexString();
    await service.create({ _id: hex, n: 1 });
    await service.create({ _id: 'my-id', n: 2 });
    expect((await collection.findOne({ n: 1 }))!._id).toBeInstanceOf(ObjectId);
    expect((await service.get(hex)).n).toBe(1);
    expect((await service.get('my-id')).n).toBe(2);
  });

  it('keeps string ids with disableObjectify', async () => {
    const { service, collection } = build({ disableObjectify: true });
    const hex = new ObjectId().toHexString();
    await service.create({ _id: hex, n: 1 });
    expect(typeof (await collection.findOne({ n: 1 }))!._id).toBe('string');
    expect((await service.get(hex)).n).toBe(1);
    expect(((await service.find({ query: { _id: { $in: [hex] } } })) as any[]).length).toBe(1);
  });

  it('patch and update never change the id', async () => {
    const { service } = build({ updateOperators: ['$set', '$unset', '$rename'] });
    const created = (await service.create({ n: 1 })) as any;
    const other = new ObjectId().toHexString();
    const patched = await service.patch(created._id, {
      _id: other,
      n: 2,
      $set: { _id: other },
      $unset: { _id: '' },
      $rename: { n2: '_id' },
    });
    expect(patched._id.toHexString()).toBe(created._id.toHexString());
    expect(patched.n).toBe(2);
    const updated = await service.update(created._id, { _id: other, n: 3 });
    expect(updated._id.toHexString()).toBe(created._id.toHexString());
    expect(updated).toEqual({ _id: created._id, n: 3 });
  });

  it('with a custom id field, generates a string id, converts nothing and hides _id unless selected', async () => {
    const { service } = build({ id: 'customid' });
    const created = (await service.create({ n: 1 })) as any;
    expect(typeof created.customid).toBe('string');
    expect(await service.get(created.customid, { query: { $select: ['n'] } })).toEqual({
      customid: created.customid,
      n: 1,
    });
    const withUnderscore = await service.get(created.customid, { query: { $select: ['_id'] } });
    expect(withUnderscore._id).toBeInstanceOf(ObjectId);
  });

  it('returns ObjectIds and Dates as stored; JSON gives hex strings and ISO dates', async () => {
    const { service } = build();
    const at = new Date('2024-05-06T07:08:09.000Z');
    const created = (await service.create({ at, ref: new ObjectId(), n: 1 })) as any;
    const got = await service.get(created._id);
    expect(got.at).toBeInstanceOf(Date);
    expect(got.ref).toBeInstanceOf(ObjectId);
    expect(JSON.parse(JSON.stringify(got))).toEqual({
      _id: created._id.toHexString(),
      at: '2024-05-06T07:08:09.000Z',
      ref: created.ref.toHexString(),
      n: 1,
    });
  });
});
