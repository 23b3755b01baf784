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

async function build(options: Partial<ConstructorParameters<typeof DatabaseService>[0]> = {}, records: object[] = []) {
  const collection = server.db().collection(server.uniqueName('query'));
  if (records.length > 0) await collection.insertMany(records.map((record) => ({ ...record })));
  const app = createApp();
  app.use('items', new DatabaseService({ Model: Promise.resolve(collection), multi: true, ...options }));
  return { service: app.service('items'), collection };
}

const people = [{ name: 'alice' }, { name: 'Bob' }, { name: 'carol' }, { name: 'Dave' }];
const names = (records: any[]) => records.map((record) => record.name);
const caseInsensitive = { locale: 'en', strength: 2 };

describe('DatabaseService collation', () => {
  it('makes $gte and the sort case-insensitive on find, and the count follows', async () => {
    const { service } = await build({}, people);
    const binary = (await service.find({ query: { name: { $gte: 'b' }, $sort: { name: 1 } } })) as any[];
    expect(names(binary)).toEqual(['carol']);
    const folded = (await service.find({
      query: { name: { $gte: 'b' }, $sort: { name: 1 } },
      collation: caseInsensitive,
    })) as any[];
    expect(names(folded)).toEqual(['Bob', 'carol', 'Dave']);
    const page = (await service.find({
      query: { name: { $gte: 'b' }, $limit: 1 },
      paginate: { default: 10 },
      collation: caseInsensitive,
    })) as any;
    expect(page.total).toBe(3);
  });

  it('applies to the findRaw path (params.database set)', async () => {
    const { service } = await build({}, people);
    const found = (await service.find({ query: { name: 'BOB' }, database: {}, collation: caseInsensitive })) as any[];
    expect(names(found)).toEqual(['Bob']);
  });

  it('applies to patch and remove, single and multi', async () => {
    const { service } = await build({}, people);
    const patched = (await service.patch(
      null,
      { seen: true },
      { query: { name: { $in: ['ALICE', 'bob'] } }, collation: caseInsensitive },
    )) as any[];
    expect(names(patched).sort()).toEqual(['Bob', 'alice']);
    const [carol] = (await service.find({ query: { name: 'carol' } })) as any[];
    await expect(service.patch(carol._id, { x: 1 }, { query: { name: 'CAROL' } })).rejects.toMatchObject({ code: 404 });
    expect((await service.patch(carol._id, { x: 1 }, { query: { name: 'CAROL' }, collation: caseInsensitive })).x).toBe(
      1,
    );
    const removed = (await service.remove(null, {
      query: { name: { $gte: 'c' } },
      collation: caseInsensitive,
    })) as any[];
    expect(names(removed).sort()).toEqual(['Dave', 'carol']);
    expect(names((await service.find({ query: { $sort: { name: 1 } } })) as any[])).toEqual(['Bob', 'alice']);
  });
});

describe('DatabaseService native query syntax', () => {
  it('$regex with $options works only when the service allows the operators', async () => {
    const closed = await build({}, people);
    await expect(closed.service.find({ query: { name: { $regex: '^b', $options: 'i' } } })).rejects.toMatchObject({
      code: 400,
    });
    const open = await build({ operators: ['$regex', '$options'] }, people);
    expect(names((await open.service.find({ query: { name: { $regex: '^b' } } })) as any[])).toEqual([]);
    expect(names((await open.service.find({ query: { name: { $regex: '^b', $options: 'i' } } })) as any[])).toEqual([
      'Bob',
    ]);
  });

  it('refuses $options flags other than i, m, s, x', async () => {
    const { service } = await build({ operators: ['$regex', '$options'] }, people);
    for (const flags of ['g', 'iu', 'ii', 'i;']) {
      await expect(service.find({ query: { name: { $regex: 'a', $options: flags } } })).rejects.toMatchObject({
        code: 400,
      });
    }
    await expect(service.find({ query: { name: { $regex: { $ne: 1 } } } })).rejects.toMatchObject({ code: 400 });
  });

  it('$text with $search when allowed (needs a text index)', async () => {
    const { service, collection } = await build({ operators: ['$text', '$search'] }, [
      { title: 'The quick brown fox' },
      { title: 'Lazy dogs sleep' },
      { title: 'Foxes are quick' },
    ]);
    await collection.createIndex({ title: 'text' });
    const found = (await service.find({ query: { $text: { $search: 'quick' } } })) as any[];
    expect(found.map((record) => record.title).sort()).toEqual(['Foxes are quick', 'The quick brown fox']);
    await expect(service.find({ query: { $text: { $search: { $ne: 1 } } } })).rejects.toMatchObject({ code: 400 });
  });

  it('never passes $where, $expr, $function or pipeline stages from params.query, even when listed', async () => {
    const { service } = await build({ operators: ['$where', '$expr', '$function', '$lookup'] }, people);
    const queries = [
      { $where: 'sleep(100)' },
      { $expr: { $eq: ['$name', 'Bob'] } },
      { name: { $function: { body: 'return 1', args: [], lang: 'js' } } },
      { $or: [{ $where: 'true' }] },
      { $lookup: { from: 'x' } },
    ];
    for (const query of queries) await expect(service.find({ query })).rejects.toMatchObject({ code: 400 });
  });
});

describe('DatabaseService patch with update operators', () => {
  it('plain data becomes $set; operators are refused unless listed', async () => {
    const { service } = await build({}, [{ name: 'a', count: 1, tags: ['x'] }]);
    const [record] = (await service.find()) as any[];
    expect(await service.patch(record._id, { extra: 1 })).toMatchObject({ name: 'a', count: 1, extra: 1 });
    for (const data of [
      { $inc: { count: 1 } },
      { $unset: { name: '' } },
      { $rename: { name: 'nom' } },
      { $set: { name: 'b' } },
    ]) {
      await expect(service.patch(record._id, data)).rejects.toMatchObject({ code: 400 });
    }
  });

  it('applies the listed operators ($inc, $push, $addToSet, $set, $unset)', async () => {
    const { service } = await build({ updateOperators: ['$inc', '$push', '$addToSet', '$set', '$unset'] }, [
      { name: 'a', count: 1, tags: ['x'], old: true },
    ]);
    const [record] = (await service.find()) as any[];
    const patched = await service.patch(record._id, {
      $inc: { count: 2 },
      $push: { tags: 'y' },
      $set: { name: 'b' },
      $unset: { old: '' },
      note: 'plain',
    });
    expect(patched).toEqual({ _id: record._id, name: 'b', count: 3, tags: ['x', 'y'], note: 'plain' });
    const again = await service.patch(record._id, { $addToSet: { tags: 'x' } });
    expect(again.tags).toEqual(['x', 'y']);
    const multi = (await service.patch(null, { $inc: { count: 10 } }, { query: { name: 'b' } })) as any[];
    expect(multi.map((item) => item.count)).toEqual([13]);
  });

  it('update refuses update operators (it replaces the record)', async () => {
    const { service } = await build({ updateOperators: ['$set'] }, [{ name: 'a' }]);
    const [record] = (await service.find()) as any[];
    await expect(service.update(record._id, { $set: { name: 'b' } })).rejects.toMatchObject({ code: 400 });
  });
});
