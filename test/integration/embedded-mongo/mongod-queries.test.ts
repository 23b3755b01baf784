import { Binary, Long, type Collection, type Document } from 'mongodb';
import { startFixture, stopFixture, type Fixture, serverError } from './embedded-mongo-fixture';

const bin = (bytes: number[], subtype = 0) => new Binary(Buffer.from(bytes), subtype);

describe('embedded mongo: query operators as in mongod 7', () => {
  let f: Fixture;
  let docs: Collection<Document>;
  beforeAll(async () => {
    f = await startFixture();
  });
  afterAll(() => stopFixture(f));
  beforeEach(async () => {
    docs = f.db.collection('query_docs');
    await docs.drop().catch(() => undefined);
  });

  const ids = async (filter: Document) =>
    (await docs.find(filter, { sort: { _id: 1 } }).toArray()).map((doc) => doc._id);

  test('mongod $all matches a scalar field equal to its only value, and arrays holding every value', async () => {
    await docs.insertMany([
      { _id: 1 as never, tags: 'a' },
      { _id: 2 as never, tags: ['a', 'b'] },
      { _id: 3 as never, tags: ['b'] },
      { _id: 4 as never, tags: [['a', 'b']] },
    ]);
    expect(await ids({ tags: { $all: ['a'] } })).toEqual([1, 2]);
    expect(await ids({ tags: { $all: ['a', 'b'] } })).toEqual([2]);
    expect(await ids({ tags: { $all: [['a', 'b']] } })).toEqual([2, 4]);
    expect(await ids({ tags: { $all: [] } })).toEqual([]);
    expect(await ids({ $or: [{ tags: { $all: ['b'], $size: 1 } }, { _id: 1 }] })).toEqual([1, 3]);
  });

  test('mongod orders BinData by length, then subtype, then bytes ($gt / $lt and sort)', async () => {
    await docs.insertMany([
      { _id: 1 as never, b: bin([9]) },
      { _id: 2 as never, b: bin([1, 1]) },
      { _id: 3 as never, b: bin([1, 1], 5) },
      { _id: 4 as never, b: bin([0, 0, 0]) },
    ]);
    expect(await ids({ b: { $gt: bin([9]) } })).toEqual([2, 3, 4]);
    expect(await ids({ b: { $lt: bin([0, 0]) } })).toEqual([1]);
    expect(await ids({ b: { $gt: bin([1, 1]), $lt: bin([0, 0, 0]) } })).toEqual([3]);
    expect((await docs.find({}, { sort: { b: -1 } }).toArray()).map((doc) => doc._id)).toEqual([4, 3, 2, 1]);
    await docs.createIndex({ b: 1 });
    expect(await ids({ b: { $gt: bin([9]) } })).toEqual([2, 3, 4]);
    expect((await docs.find({ b: { $gte: bin([1, 1]) } }, { sort: { b: 1 } }).toArray()).map((doc) => doc._id)).toEqual(
      [2, 3, 4],
    );
  });

  test('mongod $bits* operators read BinData bit positions over the bytes, little-endian', async () => {
    // Bit 0 is the lowest bit of byte 0; bit 9 is the second bit of byte 1.
    await docs.insertMany([
      { _id: 1 as never, b: bin([0b0000_0001, 0b0000_0010]) },
      { _id: 2 as never, b: bin([0b0000_0001]) },
      { _id: 3 as never, b: bin([0, 0]) },
    ]);
    expect(await ids({ b: { $bitsAllSet: [0, 9] } })).toEqual([1]);
    expect(await ids({ b: { $bitsAnySet: [9, 3] } })).toEqual([1]);
    expect(await ids({ b: { $bitsAllClear: [0] } })).toEqual([3]);
    expect(await ids({ b: { $bitsAnyClear: [0, 9] } })).toEqual([2, 3]);
    expect(await ids({ b: { $bitsAllSet: bin([0b0000_0001, 0b0000_0010]) } })).toEqual([1]);
    expect(await ids({ b: { $bitsAllSet: 0b10_0000_0001 } })).toEqual([1]);
  });

  test("mongod $bits* operators test all 64 bits of integers (two's complement for negatives)", async () => {
    await docs.insertMany([
      { _id: 1 as never, n: Long.fromString('4294967296') }, // bit 32
      { _id: 2 as never, n: -1 },
      { _id: 3 as never, n: 2.5 },
      { _id: 4 as never, n: 'text' },
    ]);
    expect(await ids({ n: { $bitsAllSet: [32] } })).toEqual([1, 2]);
    expect(await ids({ n: { $bitsAnySet: [70] } })).toEqual([2]);
    expect(await ids({ n: { $bitsAllClear: [0] } })).toEqual([1]);
  });

  test(
    'mongod refuses an unknown query operator with code 2 (BadValue) before ' +
      'reading anything, even on a missing or empty collection',
    async () => {
      const filter = { a: { $nope: 1 } };
      for (const name of ['query_missing', 'query_empty']) {
        if (name === 'query_empty') await f.db.createCollection(name);
        const target = f.db.collection(name);
        const attempts = [
          () => target.find(filter).toArray(),
          () => target.countDocuments(filter),
          () => target.deleteMany(filter),
          () => target.updateMany(filter, { $set: { b: 1 } }),
          () => target.aggregate([{ $match: filter }]).toArray(),
          () => target.aggregate([{ $addFields: { x: 1 } }, { $match: filter }]).toArray(),
        ];
        for (const attempt of attempts) {
          const error = await serverError(attempt());
          expect([error.code, error.codeName, error.message]).toEqual([2, 'BadValue', 'unknown operator: $nope']);
        }
      }
    },
  );

  test('mongod treats $within as the deprecated alias of $geoWithin', async () => {
    await docs.insertMany([
      { _id: 1 as never, loc: [1, 1] },
      { _id: 2 as never, loc: [5, 5] },
    ]);
    expect(
      await ids({
        loc: {
          $within: {
            $box: [
              [0, 0],
              [2, 2],
            ],
          },
        },
      }),
    ).toEqual([1]);
    expect(await ids({ loc: { $within: { $center: [[5, 5], 1] } } })).toEqual([2]);
  });

  test('mongod $bucket boundaries are inclusive lower bounds and exclusive upper bounds', async () => {
    await docs.insertMany([0, 5, 10, 15, 20, 25].map((v, i) => ({ _id: i as never, v })));
    const buckets = await docs
      .aggregate([{ $bucket: { groupBy: '$v', boundaries: [0, 10, 20], default: 'other' } }])
      .toArray();
    expect(buckets).toEqual([
      { _id: 0, count: 2 },
      { _id: 10, count: 2 },
      { _id: 'other', count: 2 },
    ]);
    const [faceted] = await docs
      .aggregate([
        {
          $facet: {
            byTen: [{ $bucket: { groupBy: '$v', boundaries: [0, 10, 30], output: { values: { $push: '$v' } } } }],
          },
        },
      ])
      .toArray();
    expect(faceted.byTen).toEqual([
      { _id: 0, values: [0, 5] },
      { _id: 10, values: [10, 15, 20, 25] },
    ]);
  });

  test('mongod fails $bucket for a value outside every bucket with no default (code 40066)', async () => {
    await docs.insertMany([{ _id: 1 as never, v: 50 }]);
    const error = await serverError(docs.aggregate([{ $bucket: { groupBy: '$v', boundaries: [0, 10] } }]).toArray());
    expect(error.code).toBe(40066);
    expect(error.message).toBe('$switch could not find a matching branch for an input, and no default was specified.');
  });
});
