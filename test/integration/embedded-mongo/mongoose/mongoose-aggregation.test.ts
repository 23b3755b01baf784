import mongoose, { Schema, type Model } from 'mongoose';
import { startMongoose, stopMongoose, type MongooseFixture } from './mongoose-fixture';

interface Customer {
  name: string;
}

interface Order {
  customer: mongoose.Types.ObjectId;
  status: 'open' | 'shipped';
  amount: mongoose.Types.Decimal128;
  items: number;
}

describe('Mongoose on the embedded server: aggregation', () => {
  let f: MongooseFixture;
  let Customers: Model<Customer>;
  let Orders: Model<Order>;
  beforeAll(async () => {
    f = await startMongoose('mongoose_aggregation');
    Customers = f.connection.model<Customer>('Customer', new Schema<Customer>({ name: String }));
    Orders = f.connection.model<Order>(
      'Order',
      new Schema<Order>({
        customer: { type: Schema.Types.ObjectId, ref: 'Customer' },
        status: String,
        amount: Schema.Types.Decimal128,
        items: Number,
      }),
    );
    const [ada, grace] = await Customers.create([{ name: 'Ada' }, { name: 'Grace' }]);
    await Orders.create([
      { customer: ada._id, status: 'open', amount: '19.99', items: 2 },
      { customer: ada._id, status: 'shipped', amount: '5.01', items: 1 },
      { customer: grace._id, status: 'shipped', amount: '0.10', items: 3 },
      { customer: grace._id, status: 'shipped', amount: '0.20', items: 4 },
    ]);
  });
  afterAll(() => stopMongoose(f));

  test('$lookup joins the customers and $group sums decimal amounts exactly', async () => {
    const totals = await Orders.aggregate<{
      _id: string;
      total: mongoose.Types.Decimal128;
      orders: number;
      items: number;
    }>([
      { $lookup: { from: Customers.collection.name, localField: 'customer', foreignField: '_id', as: 'customer' } },
      { $unwind: '$customer' },
      { $group: { _id: '$customer.name', total: { $sum: '$amount' }, orders: { $sum: 1 }, items: { $sum: '$items' } } },
      { $sort: { _id: 1 } },
    ]);
    expect(totals.map((row) => [row._id, String(row.total), row.orders, row.items])).toEqual([
      ['Ada', '25.00', 2, 3],
      ['Grace', '0.30', 2, 7],
    ]);
    expect(totals[0].total).toBeInstanceOf(mongoose.Types.Decimal128);
  });

  test('$facet runs several pipelines over the same orders', async () => {
    const [facets] = await Orders.aggregate([
      {
        $facet: {
          byStatus: [{ $group: { _id: '$status', count: { $sum: 1 } } }, { $sort: { _id: 1 } }],
          largest: [
            { $sort: { amount: -1 } },
            { $limit: 1 },
            { $project: { _id: 0, amount: { $toString: '$amount' } } },
          ],
          summary: [
            { $group: { _id: null, orders: { $sum: 1 }, averageItems: { $avg: '$items' } } },
            { $project: { _id: 0 } },
          ],
        },
      },
    ]);
    expect(facets).toEqual({
      byStatus: [
        { _id: 'open', count: 1 },
        { _id: 'shipped', count: 3 },
      ],
      largest: [{ amount: '19.99' }],
      summary: [{ orders: 4, averageItems: 2.5 }],
    });
  });

  test('an aggregation cursor streams its results', async () => {
    const statuses: string[] = [];
    for await (const row of Orders.aggregate<{ status: string }>([
      { $sort: { items: 1 } },
      { $project: { status: 1 } },
    ]).cursor({ batchSize: 1 })) {
      statuses.push(row.status);
    }
    expect(statuses).toEqual(['shipped', 'open', 'shipped', 'shipped']);
  });
});
