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
    const nested = await numbers.findOne({ _id: 'nested' as never }, { projection: { items: { $elemMatch: { x: 2 } } } });
    expect(nested?.items).toHaveLength(1);
  });

  test('sort orders numbers numerically and types in the canonical order', async () => {
    await numbers.insertMany([{ _id: 'null' as never, v: null }, { _id: 'object' as never, v: { a: 1 } }, { _id: 'bool' as never, v: true }]);
    const order = (await numbers.find().sort({ v: 1 }).toArray()).map((doc) => String(doc._id));
    expect(order).toEqual(['null', 'double', 'fraction', 'decimal', 'int', 'long', 'bigLong', 'text', 'object', 'bool']);
  });

  test('$type tells int, long, double and decimal apart; "number" matches all', async () => {
    const ids = async (type: unknown) => (await numbers.find({ v: { $type: type as never } }).toArray()).map((doc) => String(doc._id)).sort();
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
    expect((await numbers.find({ v: { $gte: 3, $lte: 8 } }).toArray()).map((doc) => String(doc._id)).sort()).toEqual(['decimal', 'double', 'int', 'long']);
    expect(await numbers.findOne({ v: 8 })).toMatchObject({ _id: 'long' });
  });

  test('distinct and aggregation keep types of values they pass through', async () => {
    const values = await numbers.distinct('v', { _id: { $in: ['long', 'double'] as never[] } });
    expect(values.map((value) => value.constructor.name).sort()).toEqual(['Double', 'Long']);
    const [doc] = await numbers.aggregate([{ $match: { _id: 'long' } }, { $sort: { v: 1 } }]).toArray();
    expect(doc.v).toBeInstanceOf(Long);
    const [sum] = await numbers.aggregate([{ $match: { _id: { $in: ['int', 'long', 'double'] } } }, { $group: { _id: null, total: { $sum: '$v' } } }]).toArray();
    expect(Number(sum.total)).toBe(13);
  });
});
