import { ObjectId, type Collection } from 'mongodb';
import { serverError, startFixture, stopFixture, type Fixture } from './embedded-mongo-fixture';

describe('embedded mongo: CRUD commands through the driver', () => {
  let f: Fixture;
  let people: Collection;
  beforeAll(async () => {
    f = await startFixture();
  });
  afterAll(() => stopFixture(f));
  beforeEach(async () => {
    people = f.db.collection('people');
    await people.drop().catch(() => undefined);
    await people.insertMany([
      { _id: 1 as never, name: 'ann', age: 31, tags: ['a', 'b'] },
      { _id: 2 as never, name: 'bob', age: 25, tags: ['b'] },
      { _id: 3 as never, name: 'cy', age: 40, tags: [] },
    ]);
  });

  test('insert generates ObjectIds and find returns _id first', async () => {
    const { insertedId } = await people.insertOne({ name: 'dee' });
    expect(insertedId).toBeInstanceOf(ObjectId);
    const [doc] = await people.find({ name: 'dee' }, { projection: { name: 1 } }).toArray();
    expect(Object.keys(doc)).toEqual(['_id', 'name']);
  });

  test('find with filter, sort, skip, limit and projection', async () => {
    const docs = await people
      .find({ age: { $gte: 25 } }, { sort: { age: -1 }, skip: 1, limit: 1, projection: { _id: 0, name: 1 } })
      .toArray();
    expect(docs).toEqual([{ name: 'ann' }]);
    expect(await people.findOne({ _id: 2 as never })).toMatchObject({ name: 'bob' });
    expect(
      await people
        .find({ tags: 'b' })
        .map((d) => d._id)
        .toArray(),
    ).toEqual([1, 2]);
  });

  test('count, estimatedDocumentCount, countDocuments and distinct', async () => {
    expect(await people.estimatedDocumentCount()).toBe(3);
    expect(await people.countDocuments({ age: { $lt: 35 } })).toBe(2);
    expect(await people.countDocuments({}, { skip: 1, limit: 1 })).toBe(1);
    expect((await people.distinct('tags')).sort()).toEqual(['a', 'b']);
  });

  test('update with operators, replacement and pipeline', async () => {
    const many = await people.updateMany({ age: { $gt: 26 } }, { $inc: { age: 1 }, $push: { tags: 'x' } as never });
    expect(many).toMatchObject({ matchedCount: 2, modifiedCount: 2 });
    const same = await people.updateOne({ _id: 2 as never }, { $set: { name: 'bob' } });
    expect(same).toMatchObject({ matchedCount: 1, modifiedCount: 0 });
    await people.replaceOne({ _id: 2 as never }, { name: 'robert' });
    expect(await people.findOne({ _id: 2 as never })).toEqual({ _id: 2, name: 'robert' });
    await people.updateOne({ _id: 3 as never }, [
      { $set: { label: { $concat: ['$name', '!'] } } },
      { $project: { _id: 0, label: 1 } },
    ]);
    expect(await people.findOne({ _id: 3 as never })).toEqual({ _id: 3, label: 'cy!' });
  });

  test('upsert seeds from query equality fields and honours $setOnInsert', async () => {
    const result = await people.updateOne(
      { name: 'eve', 'address.city': 'Oslo', age: { $gt: 1 } },
      { $set: { active: true }, $setOnInsert: { created: 1 } },
      { upsert: true },
    );
    expect(result.upsertedCount).toBe(1);
    const doc = await people.findOne({ _id: result.upsertedId as never });
    expect(doc).toEqual({ _id: result.upsertedId, name: 'eve', address: { city: 'Oslo' }, active: true, created: 1 });
    await people.updateOne(
      { name: 'eve' },
      { $set: { active: false }, $setOnInsert: { created: 2 } },
      { upsert: true },
    );
    expect(await people.findOne({ name: 'eve' })).toMatchObject({ active: false, created: 1 });
    const replaced = await people.replaceOne({ _id: 99 as never }, { name: 'zed' }, { upsert: true });
    expect(replaced.upsertedId).toBe(99);
  });

  test('positional $, $[] and $[id] with arrayFilters', async () => {
    await people.insertOne({
      _id: 10 as never,
      scores: [1, 5, 9],
      items: [
        { k: 'a', n: 1 },
        { k: 'b', n: 2 },
      ],
    });
    await people.updateOne({ _id: 10 as never, scores: 5 }, { $set: { 'scores.$': 50 } });
    await people.updateOne({ _id: 10 as never }, { $inc: { 'items.$[].n': 10 } });
    await people.updateOne(
      { _id: 10 as never },
      { $set: { 'items.$[it].k': 'B' } },
      { arrayFilters: [{ 'it.k': 'b' }] },
    );
    expect(await people.findOne({ _id: 10 as never })).toEqual({
      _id: 10,
      scores: [1, 50, 9],
      items: [
        { k: 'a', n: 11 },
        { k: 'B', n: 12 },
      ],
    });
  });

  test('changing _id is refused with ImmutableField (66)', async () => {
    await expect(people.updateOne({ _id: 1 as never }, { $set: { _id: 7 } })).rejects.toMatchObject({ code: 66 });
    await expect(people.replaceOne({ _id: 1 as never }, { _id: 8, name: 'x' } as never)).rejects.toMatchObject({
      code: 66,
    });
  });

  test('an invalid $regex pattern or flag is refused with the codes mongod uses (51091, 51108)', async () => {
    for (const run of [
      (filter: object) => people.find(filter).toArray(),
      (filter: object) => people.aggregate([{ $match: filter }]).toArray(),
    ]) {
      await expect(run({ name: { $regex: '(' } })).rejects.toMatchObject({ code: 51091, codeName: 'Location51091' });
      await expect(run({ name: { $regex: 'a', $options: '%' } })).rejects.toMatchObject({
        code: 51108,
        codeName: 'Location51108',
      });
    }
  });

  test('delete one and many', async () => {
    expect((await people.deleteOne({ tags: 'b' })).deletedCount).toBe(1);
    expect((await people.deleteMany({})).deletedCount).toBe(2);
  });

  test('findAndModify: update, replace, delete, upsert', async () => {
    const after = await people.findOneAndUpdate(
      { name: 'bob' },
      { $set: { age: 26 } },
      { returnDocument: 'after', projection: { age: 1 } },
    );
    expect(after).toEqual({ _id: 2, age: 26 });
    const before = await people.findOneAndReplace({ name: 'cy' }, { name: 'cyrus' }, { sort: { age: 1 } });
    expect(before).toMatchObject({ name: 'cy' });
    const removed = await people.findOneAndDelete({}, { sort: { _id: -1 } });
    expect(removed).toMatchObject({ _id: 3, name: 'cyrus' });
    const upserted = await people.findOneAndUpdate(
      { _id: 50 as never },
      { $set: { n: 1 } },
      { upsert: true, returnDocument: 'after' },
    );
    expect(upserted).toEqual({ _id: 50, n: 1 });
    expect(await people.findOneAndUpdate({ _id: 404 as never }, { $set: { n: 1 } })).toBeNull();
  });

  test('create, listCollections and drop', async () => {
    await f.db.createCollection('made');
    await expect(f.db.createCollection('made')).rejects.toMatchObject({ code: 48 });
    const names = (await f.db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name);
    expect(names).toEqual(expect.arrayContaining(['made', 'people']));
    expect(await f.db.collection('made').drop()).toBe(true);
    expect(await f.db.collection('never-made').drop()).toBe(false);
  });

  test('createIndexes, listIndexes and dropIndexes', async () => {
    expect(await people.createIndex({ name: 1, age: -1 })).toBe('name_1_age_-1');
    const indexes = await people.listIndexes().toArray();
    expect(indexes.map((i) => i.name)).toEqual(['_id_', 'name_1_age_-1']);
    await people.dropIndex('name_1_age_-1');
    expect((await people.listIndexes().toArray()).length).toBe(1);
    await expect(f.db.collection('nope').listIndexes().toArray()).rejects.toMatchObject({ code: 26 });
  });

  test('views answer reads and refuse writes', async () => {
    await f.db.createCollection('adults', { viewOn: 'people', pipeline: [{ $match: { age: { $gte: 30 } } }] });
    expect(await f.db.collection('adults').countDocuments()).toBe(2);
    expect(
      await f.db
        .collection('adults')
        .find({}, { sort: { age: 1 } })
        .map((d) => d.name)
        .toArray(),
    ).toEqual(['ann', 'cy']);
    await expect(f.db.collection('adults').insertOne({ age: 50 })).rejects.toMatchObject({ code: 166 });
    await f.db.collection('adults').drop();
  });

  test('explain describes the plan', async () => {
    const plan = await people.find({ _id: 1 as never }).explain();
    expect(plan.queryPlanner.winningPlan.stage).toBe('IDHACK');
  });

  test('collation makes matching and sorting case-insensitive', async () => {
    await people.insertMany([{ name: 'Ann' }, { name: 'ANN' }]);
    const collation = { locale: 'en_US', strength: 2 };
    expect(await people.countDocuments({ name: 'ann' }, { collation })).toBe(3);
    expect(await people.distinct('name', { name: 'ann' }, { collation })).toHaveLength(1);
    const sorted = await people
      .find({}, { collation, sort: { name: 1, _id: 1 }, projection: { _id: 0, name: 1 } })
      .toArray();
    expect(sorted.map((d) => d.name.toLowerCase())).toEqual(['ann', 'ann', 'ann', 'bob', 'cy']);
  });

  test('a write command without its statements fails as mongod parses it: 40414, the field named', async () => {
    for (const [command, field] of [
      ['insert', 'documents'],
      ['update', 'updates'],
      ['delete', 'deletes'],
    ]) {
      const error = await serverError(f.db.command({ [command]: 'people' }));
      expect(error).toMatchObject({
        code: 40414,
        codeName: 'Location40414',
        message: `BSON field '${command}.${field}' is missing but a required field`,
      });
    }
  });
});
