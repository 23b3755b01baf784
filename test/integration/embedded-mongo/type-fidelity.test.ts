import { Decimal128, Double, Int32, Long, type Collection } from 'mongodb';
import { startFixture, stopFixture, type Fixture } from './embedded-mongo-fixture';

describe('embedded mongo: BSON numeric type fidelity', () => {
  let f: Fixture;
  let numbers: Collection;
  beforeAll(async () => {
    f = await startFixture({}, { promoteValues: false });
  });
  afterAll(() => stopFixture(f));
  beforeEach(async () => {
    numbers = f.db.collection('numbers');
    await numbers.drop().catch(() => undefined);
    await numbers.insertMany([
      { _id: 'int' as never, v: new Int32(5) },
      { _id: 'long' as never, v: Long.fromNumber(7) },
      { _id: 'double' as never, v: new Double(1) },
      { _id: 'fraction' as never, v: new Double(2.5) },
      { _id: 'decimal' as never, v: Decimal128.fromString('3.25') },
      { _id: 'bigLong' as never, v: Long.fromString('9007199254740993') },
      { _id: 'text' as never, v: '4' },
    ]);
  });

  test('each number comes back as the type it was written with', async () => {
    const byId = Object.fromEntries((await numbers.find().toArray()).map((doc) => [String(doc._id), doc.v]));
    expect(byId.int).toBeInstanceOf(Int32);
    expect(byId.long).toBeInstanceOf(Long);
    expect(byId.double).toBeInstanceOf(Double);
    expect((byId.double as Double).value).toBe(1);
    expect(byId.fraction).toBeInstanceOf(Double);
    expect(byId.decimal).toBeInstanceOf(Decimal128);
    expect(String(byId.decimal)).toBe('3.25');
    expect(String(byId.bigLong)).toBe('9007199254740993');
  });

  test('numbers compare by value across int, long, double and decimal', async () => {
    const ids = async (filter: object) => (await numbers.find(filter).toArray()).map((doc) => String(doc._id)).sort();
    expect(await ids({ v: 7 })).toEqual(['long']);
    expect(await ids({ v: Long.fromNumber(5) })).toEqual(['int']);
    expect(await ids({ v: 1 })).toEqual(['double']);
    expect(await ids({ v: { $gt: 2, $lt: 6 } })).toEqual(['decimal', 'fraction', 'int']);
    expect(await ids({ v: { $gt: Long.fromNumber(6) } })).toEqual(['bigLong', 'long']);
  });

  test('projection keeps types; $elemMatch projection compares by value', async () => {
    await numbers.insertOne({ _id: 'nested' as never, items: [{ x: Long.fromNumber(1) }, { x: new Double(2) }] });
    const doc = await numbers.findOne({ _id: 'long' as never }, { projection: { v: 1 } });
    expect(doc?.v).toBeInstanceOf(Long);
    const nested = await numbers.findOne(
      { _id: 'nested' as never },
      { projection: { items: { $elemMatch: { x: 2 } } } },
    );
    expect(nested?.items).toHaveLength(1);
  });

  test('sort orders numbers numerically and types in the canonical order', async () => {
    await numbers.insertMany([
      { _id: 'null' as never, v: null },
      { _id: 'object' as never, v: { a: 1 } },
      { _id: 'bool' as never, v: true },
    ]);
    const order = (await numbers.find().sort({ v: 1 }).toArray()).map((doc) => String(doc._id));
    expect(order).toEqual([
      'null',
      'double',
      'fraction',
      'decimal',
      'int',
      'long',
      'bigLong',
      'text',
      'object',
      'bool',
    ]);
  });

  test('$type tells int, long, double and decimal apart; "number" matches all', async () => {
    const ids = async (type: unknown) =>
      (await numbers.find({ v: { $type: type as never } }).toArray()).map((doc) => String(doc._id)).sort();
    expect(await ids('int')).toEqual(['int']);
    expect(await ids('long')).toEqual(['bigLong', 'long']);
    expect(await ids('double')).toEqual(['double', 'fraction']);
    expect(await ids('decimal')).toEqual(['decimal']);
    expect(await ids(16)).toEqual(['int']);
    expect(await ids('number')).toHaveLength(6);
    expect(await ids(['string', 'long'])).toEqual(['bigLong', 'long', 'text']);
  });

  test('$inc keeps the stored width; indexes see every numeric type', async () => {
    await numbers.updateOne({ _id: 'long' as never }, { $inc: { v: 1 } });
    await numbers.updateOne({ _id: 'double' as never }, { $inc: { v: 2 } });
    const long = await numbers.findOne({ _id: 'long' as never });
    const double = await numbers.findOne({ _id: 'double' as never });
    expect(long?.v).toEqual(Long.fromNumber(8));
    expect(double?.v).toBeInstanceOf(Double);
    expect((double?.v as Double).value).toBe(3);
    await numbers.createIndex({ v: 1 });
    expect((await numbers.find({ v: { $gte: 3, $lte: 8 } }).toArray()).map((doc) => String(doc._id)).sort()).toEqual([
      'decimal',
      'double',
      'int',
      'long',
    ]);
    expect(await numbers.findOne({ v: 8 })).toMatchObject({ _id: 'long' });
  });

  test(
    '$mul keeps the wider type, widens an int32 overflow to int64, and sets a ' +
      "missing field to a zero of the multiplier's type",
    async () => {
      const typeOf = async (id: string) => {
        const value = (await numbers.findOne({ _id: id as never }))?.v;
        return [value?.constructor.name ?? typeof value, Number(value)];
      };
      await numbers.updateOne({ _id: 'int' as never }, { $mul: { v: new Int32(3) } });
      expect(await typeOf('int')).toEqual(['Int32', 15]);
      await numbers.updateOne({ _id: 'long' as never }, { $mul: { v: new Int32(2) } });
      expect(await typeOf('long')).toEqual(['Long', 14]);
      await numbers.updateOne({ _id: 'double' as never }, { $mul: { v: new Int32(4) } });
      expect(await typeOf('double')).toEqual(['Double', 4]);
      await numbers.updateOne({ _id: 'int' as never }, { $mul: { v: new Double(0.5) } });
      expect(await typeOf('int')).toEqual(['Double', 7.5]);
      await numbers.insertOne({ _id: 'big' as never, v: new Int32(2_000_000_000) });
      await numbers.updateOne({ _id: 'big' as never }, { $mul: { v: new Int32(2) } });
      expect(await typeOf('big')).toEqual(['Long', 4_000_000_000]);
      await numbers.updateOne({ _id: 'text' as never }, { $mul: { missing: Long.fromNumber(9) } });
      expect((await numbers.findOne({ _id: 'text' as never }))?.missing).toEqual(Long.fromNumber(0));
      const failure = async (update: Promise<unknown>) =>
        update.then(
          () => 'no error',
          (error: Error & { code?: unknown }) => [Number(error.code), error.message],
        );
      expect(await failure(numbers.updateOne({ _id: 'text' as never }, { $mul: { v: new Int32(2) } }))).toEqual([
        14,
        expect.stringContaining('non-numeric type'),
      ]);
      expect(await failure(numbers.updateOne({ _id: 'int' as never }, { $inc: { v: 'x' as never } }))).toEqual([
        14,
        expect.stringContaining('non-numeric argument'),
      ]);
    },
  );

  test("$min and $max compare across numeric types and keep the winning value's type", async () => {
    await numbers.updateOne({ _id: 'long' as never }, { $min: { v: new Double(6.5) } });
    expect((await numbers.findOne({ _id: 'long' as never }))?.v).toEqual(new Double(6.5));
    await numbers.updateOne({ _id: 'int' as never }, { $max: { v: Long.fromNumber(4) } });
    expect((await numbers.findOne({ _id: 'int' as never }))?.v).toEqual(new Int32(5));
    await numbers.updateOne({ _id: 'int' as never }, { $max: { v: Long.fromNumber(6), other: new Int32(1) } });
    const int = await numbers.findOne({ _id: 'int' as never });
    expect([int?.v, int?.other]).toEqual([Long.fromNumber(6), new Int32(1)]);
    // Across BSON types: a string sorts after every number, so $max takes it.
    await numbers.updateOne({ _id: 'decimal' as never }, { $max: { v: 'z' } });
    expect((await numbers.findOne({ _id: 'decimal' as never }))?.v).toBe('z');
    const unchanged = await numbers.updateOne({ _id: 'fraction' as never }, { $min: { v: new Int32(3) } });
    expect(Number(unchanged.modifiedCount)).toBe(0);
  });

  test('distinct and aggregation keep types of values they pass through', async () => {
    const values = await numbers.distinct('v', { _id: { $in: ['long', 'double'] as never[] } });
    expect(values.map((value) => value.constructor.name).sort()).toEqual(['Double', 'Long']);
    const [doc] = await numbers.aggregate([{ $match: { _id: 'long' } }, { $sort: { v: 1 } }]).toArray();
    expect(doc.v).toBeInstanceOf(Long);
    const [sum] = await numbers
      .aggregate([
        { $match: { _id: { $in: ['int', 'long', 'double'] } } },
        { $group: { _id: null, total: { $sum: '$v' } } },
      ])
      .toArray();
    expect(Number(sum.total)).toBe(13);
  });
});
