import { Decimal128, Double, Int32, Long, type Collection, type Document } from 'mongodb';
import { startFixture, stopFixture, type Fixture } from './embedded-mongo-fixture';

/** `[type name, text]` of a value read with promoteValues: false, e.g. ['Long', '9007199254740993']. */
const typed = (value: unknown): [string, string] => [
  (value as object)?.constructor?.name ?? typeof value,
  String(value),
];

describe('embedded mongo: exact numbers', () => {
  let f: Fixture;
  let numbers: Collection<Document>;
  beforeAll(async () => {
    f = await startFixture({}, { promoteValues: false });
  });
  afterAll(() => stopFixture(f));
  beforeEach(async () => {
    numbers = f.db.collection('exact_numbers');
    await numbers.drop().catch(() => undefined);
  });

  describe('update operators', () => {
    test('$inc on decimals is decimal arithmetic (0.1 + 0.2 is exactly 0.3), keeping the scale', async () => {
      await numbers.insertMany([
        { _id: 'a' as never, v: Decimal128.fromString('0.1') },
        { _id: 'b' as never, v: Decimal128.fromString('1.10') },
      ]);
      await numbers.updateOne({ _id: 'a' as never }, { $inc: { v: Decimal128.fromString('0.2') } });
      await numbers.updateOne({ _id: 'b' as never }, { $inc: { v: Decimal128.fromString('2.20') } });
      expect(typed((await numbers.findOne({ _id: 'a' as never }))?.v)).toEqual(['Decimal128', '0.3']);
      expect(typed((await numbers.findOne({ _id: 'b' as never }))?.v)).toEqual(['Decimal128', '3.30']);
    });

    test(
      '$inc widens int32 overflow to int64 and int64 overflow to ' + 'double; a long increment beyond 2^53 is exact',
      async () => {
        await numbers.insertMany([
          { _id: 'int' as never, v: new Int32(2147483647) },
          { _id: 'long' as never, v: Long.fromString('9223372036854775807') },
          { _id: 'big' as never, v: Long.fromString('9007199254740992') },
        ]);
        await numbers.updateOne({ _id: 'int' as never }, { $inc: { v: new Int32(1) } });
        await numbers.updateOne({ _id: 'long' as never }, { $inc: { v: new Int32(1) } });
        await numbers.updateOne({ _id: 'big' as never }, { $inc: { v: new Int32(1) } });
        expect(typed((await numbers.findOne({ _id: 'int' as never }))?.v)).toEqual(['Long', '2147483648']);
        expect(typed((await numbers.findOne({ _id: 'long' as never }))?.v)).toEqual(['Double', '9223372036854776000']);
        expect(typed((await numbers.findOne({ _id: 'big' as never }))?.v)).toEqual(['Long', '9007199254740993']);
      },
    );
  });

  describe('update operators inside arrays', () => {
    beforeEach(async () => {
      await numbers.insertOne({
        _id: 'cart' as never,
        items: [
          { sku: 'a', price: Decimal128.fromString('0.10'), qty: Long.fromString('9007199254740993') },
          { sku: 'b', price: Decimal128.fromString('1.5'), qty: new Int32(2147483647) },
        ],
      });
    });
    const items = async () =>
      ((await numbers.findOne({ _id: 'cart' as never }))?.items as Document[]).map((item) => [
        typed(item.price),
        typed(item.qty),
      ]);

    test('$inc through $, $[] and $[identifier] keeps widths and decimal arithmetic', async () => {
      await numbers.updateOne(
        { _id: 'cart' as never, 'items.sku': 'a' },
        { $inc: { 'items.$.price': Decimal128.fromString('0.20') } },
      );
      await numbers.updateOne({ _id: 'cart' as never }, { $inc: { 'items.$[].qty': new Int32(1) } });
      await numbers.updateOne(
        { _id: 'cart' as never },
        { $mul: { 'items.$[cheap].price': new Int32(3) } },
        { arrayFilters: [{ 'cheap.price': { $lt: 1 } }] },
      );
      await numbers.updateOne(
        { _id: 'cart' as never },
        { $max: { 'items.1.price': Decimal128.fromString('1.50') }, $set: { touched: true } },
      );
      expect(await items()).toEqual([
        [
          ['Decimal128', '0.90'],
          ['Long', '9007199254740994'],
        ],
        [
          ['Decimal128', '1.5'],
          ['Long', '2147483648'],
        ],
      ]);
    });

    test('the positional operator without a match and a missing array filter fail as in mongod', async () => {
      const failure = (update: Promise<unknown>) =>
        update.then(
          () => 'no error',
          (error: Error & { code?: unknown }) => [Number(error.code), error.message],
        );
      expect(await failure(numbers.updateOne({ _id: 'cart' as never }, { $inc: { 'items.$.qty': 1 } }))).toEqual([
        2,
        'The positional operator did not find the match needed from the query.',
      ]);
      expect(
        await failure(
          numbers.updateOne({ _id: 'cart' as never }, { $inc: { 'items.$[x].qty': 1 } }, { arrayFilters: [] }),
        ),
      ).toEqual([2, "No array filter found for identifier 'x' in path 'items.$[x].qty'"]);
      expect(await failure(numbers.updateOne({ _id: 'cart' as never }, { $inc: { 'items.sku': 1 } }))).toEqual([
        28,
        expect.stringContaining("Cannot create field 'sku'"),
      ]);
    });
  });

  describe('aggregation', () => {
    beforeEach(async () => {
      await numbers.insertMany([
        {
          _id: 1 as never,
          g: 'long',
          v: Long.fromString('9007199254740993'),
          d: Decimal128.fromString('0.1'),
          i: new Int32(2147483647),
        },
        { _id: 2 as never, g: 'long', v: Long.fromNumber(1), d: Decimal128.fromString('0.2'), i: new Int32(1) },
      ]);
    });

    test(
      '$sum of longs is an exact long; of int32 that overflow a long; ' +
        '$avg of ints a double, of decimals a decimal',
      async () => {
        const [group] = await numbers
          .aggregate([
            {
              $group: {
                _id: '$g',
                longs: { $sum: '$v' },
                ints: { $sum: '$i' },
                count: { $sum: 1 },
                decimals: { $sum: '$d' },
                intAverage: { $avg: '$_id' },
                decimalAverage: { $avg: '$d' },
              },
            },
          ])
          .toArray();
        expect(typed(group.longs)).toEqual(['Long', '9007199254740994']);
        expect(typed(group.ints)).toEqual(['Long', '2147483648']);
        expect(typed(group.count)).toEqual(['Int32', '2']);
        expect(typed(group.decimals)).toEqual(['Decimal128', '0.3']);
        expect(typed(group.intAverage)).toEqual(['Double', '1.5']);
        expect(typed(group.decimalAverage)).toEqual(['Decimal128', '0.15']);
      },
    );

    test("$first, $last, $min, $max, $push and $addToSet keep the picked values' types", async () => {
      const [group] = await numbers
        .aggregate([
          { $sort: { _id: 1 } },
          {
            $group: {
              _id: '$g',
              first: { $first: '$v' },
              last: { $last: '$d' },
              min: { $min: '$v' },
              max: { $max: '$d' },
              all: { $push: '$v' },
              set: { $addToSet: '$d' },
            },
          },
          {
            $project: {
              first: 1,
              last: 1,
              min: 1,
              max: 1,
              all: 1,
              set: 1,
              smallest: { $min: ['$i', Long.fromNumber(5)] },
            },
          },
        ])
        .toArray();
      expect(typed(group.first)).toEqual(['Long', '9007199254740993']);
      expect(typed(group.last)).toEqual(['Decimal128', '0.2']);
      expect(typed(group.min)).toEqual(['Long', '1']);
      expect(typed(group.max)).toEqual(['Decimal128', '0.2']);
      expect((group.all as unknown[]).map(typed)).toEqual([
        ['Long', '9007199254740993'],
        ['Long', '1'],
      ]);
      expect((group.set as unknown[]).map(typed).sort()).toEqual([
        ['Decimal128', '0.1'],
        ['Decimal128', '0.2'],
      ]);
    });

    test(
      'fields copied by $project, $addFields, $unwind and $lookup keep ' +
        'their types; computed ones take the computed type',
      async () => {
        await numbers.updateOne(
          { _id: 1 as never },
          { $set: { list: [Long.fromNumber(3), Decimal128.fromString('4.50')] } },
        );
        const [doc] = await numbers
          .aggregate([
            { $match: { _id: 1 } },
            { $lookup: { from: 'exact_numbers', localField: 'g', foreignField: 'g', as: 'peers' } },
            { $unwind: '$list' },
            { $addFields: { asInt: { $toInt: '$i' }, peerCount: { $size: '$peers' } } },
            { $sort: { list: -1 } },
            { $project: { _id: 0, v: 1, d: 1, list: 1, asInt: 1, firstPeer: { $first: '$peers.v' } } },
            { $limit: 1 },
          ])
          .toArray();
        expect(Object.fromEntries(Object.entries(doc).map(([key, value]) => [key, typed(value)]))).toEqual({
          v: ['Long', '9007199254740993'],
          d: ['Decimal128', '0.1'],
          list: ['Decimal128', '4.50'],
          asInt: ['Int32', '2147483647'],
          firstPeer: ['Long', '9007199254740993'],
        });
      },
    );

    test('$max / $min over a list compare across widths and return the winner as stored', async () => {
      const docs = await numbers
        .aggregate([
          { $sort: { _id: 1 } },
          { $project: { _id: 0, max: { $max: ['$v', '$d'] }, min: { $min: ['$d', '$i', 5] } } },
        ])
        .toArray();
      expect(docs.map((doc) => [typed(doc.max), typed(doc.min)])).toEqual([
        [
          ['Long', '9007199254740993'],
          ['Decimal128', '0.1'],
        ],
        [
          ['Long', '1'],
          ['Decimal128', '0.2'],
        ],
      ]);
    });

    test('$unwind keeping empty arrays or adding an index does not alter the stored documents', async () => {
      await numbers.insertOne({ _id: 3 as never, g: 'empty', list: [] });
      const unwound = await numbers
        .aggregate([
          { $unwind: { path: '$list', preserveNullAndEmptyArrays: true, includeArrayIndex: 'at' } },
          { $count: 'n' },
        ])
        .toArray();
      expect(unwound).toEqual([{ n: new Int32(3) }]);
      expect(Number(await numbers.countDocuments({ list: { $exists: true } }))).toBe(1);
      expect(Number(await numbers.countDocuments({ at: { $exists: true } }))).toBe(0);
    });

    test('$sum of longs that overflow int64 is a double', async () => {
      await numbers.insertOne({ _id: 3 as never, g: 'long', v: Long.fromString('9223372036854775807') });
      const [group] = await numbers
        .aggregate([{ $match: { g: 'long' } }, { $group: { _id: null, total: { $sum: '$v' } } }])
        .toArray();
      expect(group.total).toBeInstanceOf(Double);
    });

    test('$add, $subtract, $multiply and $divide keep widths; decimal operands make them decimal', async () => {
      const [doc] = await numbers
        .aggregate([
          { $match: { _id: 1 } },
          {
            $project: {
              longPlusOne: { $add: ['$v', 1] },
              intOverflow: { $add: ['$i', 1] },
              decimalSum: { $add: ['$d', Decimal128.fromString('0.2')] },
              mixed: { $add: ['$d', 0.2] },
              difference: { $subtract: ['$v', Long.fromNumber(2)] },
              product: { $multiply: [Decimal128.fromString('1.10'), Decimal128.fromString('3')] },
              intProduct: { $multiply: ['$i', 2] },
              quotient: { $divide: [Decimal128.fromString('1'), Decimal128.fromString('3')] },
              intQuotient: { $divide: [new Int32(6), new Int32(3)] },
              nested: { $add: [{ $multiply: ['$v', 2] }, 1] },
            },
          },
        ])
        .toArray();
      expect(typed(doc.longPlusOne)).toEqual(['Long', '9007199254740994']);
      expect(typed(doc.intOverflow)).toEqual(['Long', '2147483648']);
      expect(typed(doc.decimalSum)).toEqual(['Decimal128', '0.3']);
      expect(typed(doc.mixed)).toEqual(['Decimal128', '0.300000000000000']);
      expect(typed(doc.difference)).toEqual(['Long', '9007199254740991']);
      expect(typed(doc.product)).toEqual(['Decimal128', '3.30']);
      expect(typed(doc.intProduct)).toEqual(['Long', '4294967294']);
      expect(typed(doc.quotient)).toEqual(['Decimal128', '0.3333333333333333333333333333333333']);
      expect(typed(doc.intQuotient)).toEqual(['Double', '2']);
      expect(typed(doc.nested)).toEqual(['Long', '18014398509481987']);
    });

    test('a typed result stays comparable in later stages and inside other operators', async () => {
      const docs = await numbers
        .aggregate([
          { $group: { _id: '$g', total: { $sum: '$v' } } },
          { $match: { total: { $gt: 9007199254740000 } } },
          { $project: { big: { $gt: [{ $add: ['$total', 1] }, 5] } } },
        ])
        .toArray();
      expect(docs).toEqual([{ _id: 'long', big: true }]);
    });

    test('$divide by zero is an error', async () => {
      const failure = await numbers
        .aggregate([{ $project: { q: { $divide: ['$i', 0] } } }])
        .toArray()
        .catch((error: Error) => error.message);
      expect(failure).toBe("can't $divide by zero");
    });
  });

  describe('int64 beyond 2^53 compares exactly', () => {
    const ids = async (filter: Document, sort?: Document) =>
      (await numbers.find(filter, { sort }).toArray()).map((doc) => String(doc._id));
    beforeEach(async () => {
      await numbers.insertMany([
        { _id: 'p53' as never, v: Long.fromString('9007199254740992') },
        { _id: 'p53+1' as never, v: Long.fromString('9007199254740993') },
        { _id: 'p53+2' as never, v: Long.fromString('9007199254740994') },
        { _id: 'double' as never, v: new Double(9007199254740992) },
      ]);
    });

    const checks = async () => {
      expect((await ids({ v: Long.fromString('9007199254740993') })).sort()).toEqual(['p53+1']);
      expect((await ids({ v: Long.fromString('9007199254740992') })).sort()).toEqual(['double', 'p53']);
      expect((await ids({ v: new Double(9007199254740992) })).sort()).toEqual(['double', 'p53']);
      expect((await ids({ v: { $gt: Long.fromString('9007199254740992') } })).sort()).toEqual(['p53+1', 'p53+2']);
      expect((await ids({ v: { $gt: new Double(9007199254740992) } })).sort()).toEqual(['p53+1', 'p53+2']);
      expect((await ids({ v: { $lte: Long.fromString('9007199254740993') } })).sort()).toEqual([
        'double',
        'p53',
        'p53+1',
      ]);
      expect(
        (await ids({ v: { $in: [Long.fromString('9007199254740993'), Long.fromString('9007199254740994')] } })).sort(),
      ).toEqual(['p53+1', 'p53+2']);
      expect((await ids({ v: { $ne: Long.fromString('9007199254740993') } })).sort()).toEqual([
        'double',
        'p53',
        'p53+2',
      ]);
      const descending = await ids({}, { v: -1, _id: 1 });
      expect(descending).toEqual(['p53+2', 'p53+1', 'double', 'p53']);
    };

    test('in queries and sorts without an index', checks);

    test('in an index: equality, ranges and index order', async () => {
      await numbers.createIndex({ v: 1 });
      await checks();
      const ordered = await numbers
        .find({ v: { $gte: Long.fromString('9007199254740993') } })
        .hint({ v: 1 })
        .toArray();
      expect(ordered.map((doc) => String(doc._id))).toEqual(['p53+1', 'p53+2']);
    });

    test('in $match and $sort stages after a $group', async () => {
      const group = { $group: { _id: '$_id', total: { $sum: '$v' } } };
      const matched = await numbers
        .aggregate([group, { $match: { total: { $gte: Long.fromString('9007199254740993') } } }, { $sort: { _id: 1 } }])
        .toArray();
      expect(matched.map((doc) => String(doc._id))).toEqual(['p53+1', 'p53+2']);
      const sorted = await numbers.aggregate([group, { $sort: { total: -1, _id: 1 } }]).toArray();
      expect(sorted.map((doc) => String(doc._id))).toEqual(['p53+2', 'p53+1', 'double', 'p53']);
    });

    test('in a unique index two longs one apart beyond 2^53 are different keys', async () => {
      await numbers.deleteMany({ _id: 'double' as never });
      await numbers.createIndex({ v: 1 }, { unique: true });
      await expect(
        numbers.insertOne({ _id: 'p53+3' as never, v: Long.fromString('9007199254740995') }),
      ).resolves.toBeDefined();
      const duplicate = await numbers
        .insertOne({ _id: 'copy' as never, v: Long.fromString('9007199254740995') })
        .catch((error: { code?: unknown }) => Number(error.code));
      expect(duplicate).toBe(11000);
    });
  });
});
