import { type Collection, type Document } from 'mongodb';
import { startFixture, stopFixture, type Fixture, serverError } from './embedded-mongo-fixture';

describe('embedded mongo: update semantics as in mongod 7', () => {
  let f: Fixture;
  let items: Collection<Document>;
  beforeAll(async () => {
    f = await startFixture();
  });
  afterAll(() => stopFixture(f));
  beforeEach(async () => {
    items = f.db.collection('update_items');
    await items.drop().catch(() => undefined);
  });

  test(
    'mongod sets two fields of the element matched by `$` in one ' + 'update (Mongoose timestamps on a subdocument)',
    async () => {
      await items.insertOne({
        _id: 1 as never,
        children: [
          { _id: 10, a: 0 },
          { _id: 11, a: 0 },
        ],
      });
      await items.updateOne(
        { _id: 1 as never, 'children._id': 11 },
        { $set: { 'children.$.a': 5, 'children.$.b': 6 } },
      );
      expect(await items.findOne({ _id: 1 as never })).toEqual({
        _id: 1,
        children: [
          { _id: 10, a: 0 },
          { _id: 11, a: 5, b: 6 },
        ],
      });
    },
  );

  test(
    'mongod resolves `$` once, against the document before the ' + 'update (changing the matched field itself)',
    async () => {
      await items.insertOne({ _id: 1 as never, children: [{ a: 1 }, { a: 2 }] });
      await items.updateOne({ 'children.a': 2 }, { $set: { 'children.$.a': 3, 'children.$.seen': true } });
      expect(await items.findOne({ _id: 1 as never })).toEqual({ _id: 1, children: [{ a: 1 }, { a: 3, seen: true }] });
    },
  );

  test('mongod sets two fields of every element an arrayFilters identifier `$[c]` selects', async () => {
    await items.insertOne({
      _id: 1 as never,
      children: [
        { k: 'x', a: 0 },
        { k: 'y', a: 0 },
        { k: 'x', a: 0 },
      ],
    });
    await items.updateOne(
      { _id: 1 as never },
      { $set: { 'children.$[c].a': 1, 'children.$[c].b': 2 } },
      { arrayFilters: [{ 'c.k': 'x' }] },
    );
    expect((await items.findOne({ _id: 1 as never }))?.children).toEqual([
      { k: 'x', a: 1, b: 2 },
      { k: 'y', a: 0 },
      { k: 'x', a: 1, b: 2 },
    ]);
    await items.updateOne({ _id: 1 as never }, { $inc: { 'children.$[].a': 10 } });
    expect((await items.findOne({ _id: 1 as never }))?.children.map((child: Document) => child.a)).toEqual([
      11, 10, 11,
    ]);
  });

  test('mongod refuses only real path conflicts (`a` and `a.b`) with code 40 ConflictingUpdateOperators', async () => {
    await items.insertOne({ _id: 1 as never, a: { b: 1 }, list: [] });
    const nested = await serverError(items.updateOne({ _id: 1 as never }, { $set: { a: 1, 'a.b': 2 } }));
    expect([nested.code, nested.codeName]).toEqual([40, 'ConflictingUpdateOperators']);
    expect(nested.message).toBe("Updating the path 'a.b' would create a conflict at 'a'");
    const across = await serverError(
      items.updateOne({ _id: 1 as never }, { $set: { list: [1] }, $push: { list: 2 } as never }),
    );
    expect(across.code).toBe(40);
    expect(await items.findOne({ _id: 1 as never })).toEqual({ _id: 1, a: { b: 1 }, list: [] });
  });

  test(
    'mongod $pull with an $or / $and condition removes the matching ' + 'subdocuments (MongooseArray#pull without _id)',
    async () => {
      await items.insertOne({ _id: 1 as never, arr: [{ a: 1, b: 0 }, { a: 0, b: 2 }, { a: 0, b: 0 }, 7] });
      await items.updateOne({ _id: 1 as never }, { $pull: { arr: { $or: [{ a: 1 }, { b: 2 }] } } as never });
      expect((await items.findOne({ _id: 1 as never }))?.arr).toEqual([{ a: 0, b: 0 }, 7]);
      await items.updateOne({ _id: 1 as never }, { $pull: { arr: { $and: [{ a: 0 }, { b: 0 }] } } as never });
      expect((await items.findOne({ _id: 1 as never }))?.arr).toEqual([7]);
    },
  );

  test(
    'mongod $pull applies an operator-only condition to each element ' +
      'value and a field condition to each subdocument',
    async () => {
      await items.insertOne({ _id: 1 as never, nums: [1, 5, 8, 3], subs: [{ n: 1 }, { n: 5 }, 5] });
      await items.updateOne({ _id: 1 as never }, { $pull: { nums: { $gte: 5 }, subs: { n: { $gt: 2 } } } as never });
      expect(await items.findOne({ _id: 1 as never })).toEqual({ _id: 1, nums: [1, 3], subs: [{ n: 1 }, 5] });
    },
  );

  test(
    'mongod fails $push on a field that is not an array with code 2 ' +
      '(BadValue), naming the field, its type and the _id',
    async () => {
      await items.insertOne({ _id: 1 as never, x: 5 });
      const error = await serverError(items.updateOne({ _id: 1 as never }, { $push: { x: 1 } as never }));
      expect([error.code, error.codeName]).toEqual([2, 'BadValue']);
      expect(error.message).toBe("The field 'x' must be an array but is of type int in document {_id: 1}");
      expect(await items.findOne({ _id: 1 as never })).toEqual({ _id: 1, x: 5 });
    },
  );

  test('mongod fails $set of a.b where a is an array with code 28 (PathNotViable)', async () => {
    await items.insertOne({ _id: 1 as never, a: [1, 2] });
    const error = await serverError(items.updateOne({ _id: 1 as never }, { $set: { 'a.b': 1 } }));
    expect([error.code, error.codeName]).toEqual([28, 'PathNotViable']);
    expect(error.message).toBe("Cannot create field 'b' in element {a: [ 1, 2 ]}");
    const scalar = await serverError(items.updateOne({ _id: 1 as never }, { $inc: { 'a.0.c': 1 } }));
    expect(scalar.code).toBe(28);
    // A numeric segment names an element, which mongod may set.
    await items.updateOne({ _id: 1 as never }, { $set: { 'a.1': 9 } });
    expect(await items.findOne({ _id: 1 as never })).toEqual({ _id: 1, a: [1, 9] });
  });

  test(
    'mongod stores $-prefixed and dotted field names set through ' +
      '$setField in a pipeline update, and reads them back',
    async () => {
      await items.insertOne({ _id: 1 as never });
      await items.updateOne({ _id: 1 as never }, [
        { $replaceWith: { $setField: { field: { $literal: '$price' }, input: '$$ROOT', value: 5 } } },
        { $replaceWith: { $setField: { field: 'a.b', input: '$$ROOT', value: 6 } } },
      ]);
      expect(await items.findOne({ _id: 1 as never })).toEqual({ _id: 1, $price: 5, 'a.b': 6 });
      const [read] = await items
        .aggregate([
          {
            $project: {
              _id: 0,
              price: { $getField: { field: { $literal: '$price' }, input: '$$ROOT' } },
              ab: { $getField: 'a.b' },
            },
          },
        ])
        .toArray();
      expect(read).toEqual({ price: 5, ab: 6 });
    },
  );

  test(
    'mongod stores a top-level $-prefixed $set field only when an upsert ' +
      'inserts; on an existing document it is code 52',
    async () => {
      await items.updateOne({ date: 'd1' }, { $set: { phone: 1, $hotel: 2 } } as never, { upsert: true });
      const inserted = await items.findOne({ date: 'd1' }, { projection: { _id: 0 } });
      expect(inserted).toEqual({ date: 'd1', $hotel: 2, phone: 1 });
      const error = await serverError(items.updateOne({ date: 'd1' }, { $set: { $hotel: 3 } } as never));
      expect([error.code, error.codeName]).toEqual([52, 'DollarPrefixedFieldName']);
      // A nested $-prefixed field is an ordinary path for an operator update.
      await items.updateOne({ date: 'd1' }, { $set: { 'address.$street': 'Elm Ave' } });
      expect((await items.findOne({ date: 'd1' }))?.address).toEqual({ $street: 'Elm Ave' });
    },
  );

  test(
    'mongod stores a field named __proto__ as a plain field, and ' + 'updates through it never reach Object.prototype',
    async () => {
      // JSON.parse makes `__proto__` an own field, as the driver's BSON decoder does.
      await items.insertOne(JSON.parse('{ "_id": 1, "__proto__": { "n": 1 } }') as Document);
      await items.insertOne(JSON.parse('{ "_id": 2 }') as Document);
      const stored = await items.findOne({ _id: 1 as never });
      expect(Object.keys(stored ?? {})).toEqual(['_id', '__proto__']);
      expect(Object.getPrototypeOf(stored)).toBe(Object.prototype);
      await items.updateOne({ _id: 1 as never }, JSON.parse('{ "$set": { "__proto__.polluted": 1 } }') as Document);
      await items.updateOne(
        { _id: 2 as never },
        JSON.parse('{ "$set": { "__proto__.polluted": 1, "y.__proto__.polluted": 1 } }') as Document,
      );
      await items.updateOne({ _id: 2 as never }, JSON.parse('{ "$inc": { "__proto__.count": 1 } }') as Document);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(({} as Record<string, unknown>).count).toBeUndefined();
      const docs = await items.find({}, { sort: { _id: 1 } }).toArray();
      expect(docs.map((doc) => JSON.stringify(doc))).toEqual([
        '{"_id":1,"__proto__":{"n":1,"polluted":1}}',
        '{"_id":2,"__proto__":{"polluted":1,"count":1},"y":{"__proto__":{"polluted":1}}}',
      ]);
    },
  );
});
