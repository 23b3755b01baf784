import { Schema, type Model, type Types } from 'mongoose';
import { startMongoose, stopMongoose, type MongooseFixture } from './mongoose-fixture';

interface Item {
  _id?: Types.ObjectId;
  sku: string;
  qty: number;
  createdAt?: Date;
  updatedAt?: Date;
}

interface Label {
  name: string;
  color: string;
}

interface Order {
  ref: string;
  items: Item[];
  labels: Label[];
  notes: string[];
  scores: number[];
}

describe('Mongoose on the embedded server: subdocument arrays', () => {
  let f: MongooseFixture;
  let Orders: Model<Order>;
  beforeAll(async () => {
    f = await startMongoose('mongoose_subdocuments');
    const itemSchema = new Schema<Item>({ sku: String, qty: Number }, { timestamps: true });
    const labelSchema = new Schema<Label>({ name: String, color: String }, { _id: false });
    Orders = f.connection.model<Order>(
      'Order',
      new Schema<Order>({ ref: String, items: [itemSchema], labels: [labelSchema], notes: [String], scores: [Number] }),
    );
  });
  afterAll(() => stopMongoose(f));
  beforeEach(async () => {
    await Orders.deleteMany({});
  });

  async function newOrder(): Promise<Order & { _id: Types.ObjectId }> {
    const order = await Orders.create({
      ref: 'o-1',
      items: [
        { sku: 'a', qty: 1 },
        { sku: 'b', qty: 2 },
        { sku: 'a', qty: 3 },
      ],
      labels: [
        { name: 'rush', color: 'red' },
        { name: 'gift', color: 'green' },
      ],
      notes: ['n1', 'n2', 'n3', 'n4'],
      scores: [3, 8, 9],
    });
    return order.toObject();
  }

  test(
    'positional updates set the field and the subdocument timestamp together ' +
      '(mongod accepts items.$.qty with items.$.updatedAt)',
    async () => {
      const order = await newOrder();
      const target = order.items[1];
      await Orders.updateOne({ _id: order._id, 'items._id': target._id }, { $set: { 'items.$.qty': 20 } });
      const after = await Orders.findById(order._id).lean().orFail();
      expect(after.items[1]).toMatchObject({ sku: 'b', qty: 20 });
      expect(after.items[1].updatedAt!.getTime()).toBeGreaterThanOrEqual(target.updatedAt!.getTime());
      expect(after.items[0].qty).toBe(1);
    },
  );

  test('arrayFilters updates of subdocuments with timestamps (items.$[i].qty with items.$[i].updatedAt)', async () => {
    const order = await newOrder();
    await Orders.updateOne({ _id: order._id }, { $set: { 'items.$[i].qty': 0 } }, { arrayFilters: [{ 'i.sku': 'a' }] });
    const after = await Orders.findById(order._id).lean().orFail();
    expect(after.items.map((item) => item.qty)).toEqual([0, 2, 0]);
    expect(after.items.every((item) => item.updatedAt instanceof Date)).toBe(true);
  });

  test(
    'saving a changed subdocument and MongooseArray#pull() of ' + 'subdocuments without _id (mongod $pull with $or)',
    async () => {
      const order = await Orders.findById((await newOrder())._id).orFail();
      order.items[2].qty = 30;
      (order.labels as unknown as Types.DocumentArray<Label>).pull({ name: 'rush', color: 'red' });
      await order.save();
      const after = await Orders.findById(order._id).lean().orFail();
      expect(after.items.map((item) => item.qty)).toEqual([1, 2, 30]);
      expect(after.labels).toEqual([{ name: 'gift', color: 'green' }]);
    },
  );

  test(
    "Query#slice() keeps the document's other fields (mongod: a " + '$slice-only projection excludes nothing)',
    async () => {
      const order = await newOrder();
      const sliced = await Orders.findById(order._id).slice('notes', 2).lean().orFail();
      expect(sliced.notes).toEqual(['n1', 'n2']);
      expect(sliced.ref).toBe('o-1');
      expect(sliced.items).toHaveLength(3);
      const last = await Orders.findById(order._id).slice('notes', [-2, 1]).lean().orFail();
      expect(last.notes).toEqual(['n3']);
    },
  );

  test('$elemMatch projections return the first matching element, for field and operator-only conditions', async () => {
    const order = await newOrder();
    const byField = await Orders.findById(order._id, { items: { $elemMatch: { sku: 'b' } } })
      .lean()
      .orFail();
    expect(byField.items).toHaveLength(1);
    expect(byField.items[0]).toMatchObject({ sku: 'b', qty: 2 });
    expect(byField.ref).toBeUndefined();
    const byValue = await Orders.findById(order._id, { scores: { $elemMatch: { $gte: 8 } }, ref: 1 })
      .lean()
      .orFail();
    expect(byValue.scores).toEqual([8]);
    expect(byValue.ref).toBe('o-1');
    const byIn = await Orders.findById(order._id, { scores: { $elemMatch: { $in: [9, 3] } } })
      .lean()
      .orFail();
    expect(byIn.scores).toEqual([3]);
  });
});
