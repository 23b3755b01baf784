import { Schema } from 'mongoose';
import { startMongoose, stopMongoose, type MongooseFixture } from './mongoose-fixture';

describe('Mongoose Model.watch() on the embedded server', () => {
  let f: MongooseFixture;
  beforeAll(async () => {
    f = await startMongoose('mongoose_watch');
  });
  afterAll(async () => stopMongoose(f));

  it("emits 'change' for creates and updates, as on a mongod replica set", async () => {
    const Item = f.connection.model('Item', new Schema({ name: String, count: Number }));
    await Item.init();
    const stream = Item.watch([], { fullDocument: 'updateLookup' });
    const changes: Array<Record<string, unknown>> = [];
    const seenTwo = new Promise<void>((resolve) => {
      stream.on('change', (change: Record<string, unknown>) => {
        changes.push(change);
        if (changes.length === 2) resolve();
      });
    });
    await new Promise((resolve) => setTimeout(resolve, 200)); // the stream's aggregate is sent
    const item = await Item.create({ name: 'a', count: 1 });
    await Item.updateOne({ _id: item._id }, { $inc: { count: 1 } });
    await seenTwo;
    expect(changes[0]).toMatchObject({ operationType: 'insert', fullDocument: { name: 'a', count: 1 } });
    expect(changes[1]).toMatchObject({
      operationType: 'update',
      fullDocument: { name: 'a', count: 2 },
      updateDescription: { updatedFields: { count: 2 } },
    });
    await stream.close();
  });
});
