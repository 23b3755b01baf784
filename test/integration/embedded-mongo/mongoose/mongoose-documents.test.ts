import mongoose, { Schema, type Model } from 'mongoose';
import { startMongoose, stopMongoose, type MongooseFixture } from './mongoose-fixture';

interface User {
  email: string;
  name: string;
  age?: number;
  role: 'admin' | 'member';
  visits: number;
  createdAt?: Date;
  updatedAt?: Date;
}

interface Book {
  title: string;
  author: mongoose.Types.ObjectId;
}

describe('Mongoose on the embedded server: documents', () => {
  let f: MongooseFixture;
  let Users: Model<User>;
  let Books: Model<Book>;
  beforeAll(async () => {
    f = await startMongoose('mongoose_documents');
    const userSchema = new Schema<User>(
      {
        email: { type: String, required: true, unique: true, lowercase: true, trim: true },
        name: { type: String, required: true, minlength: 2 },
        age: { type: Number, min: 0, max: 150, index: true },
        role: { type: String, enum: ['admin', 'member'], default: 'member' },
        visits: { type: Number, default: 0 },
      },
      { timestamps: true },
    );
    Users = f.connection.model<User>('User', userSchema);
    Books = f.connection.model<Book>(
      'Book',
      new Schema<Book>({ title: String, author: { type: Schema.Types.ObjectId, ref: 'User' } }),
    );
    await Users.init();
  });
  afterAll(() => stopMongoose(f));
  beforeEach(async () => {
    await Users.deleteMany({});
    await Books.deleteMany({});
  });

  test(
    'schemas apply defaults, casting, setters and timestamps; ' + 'validation errors keep invalid documents out',
    async () => {
      const ada = await Users.create({ email: '  ADA@example.com ', name: 'Ada', age: '36' as never });
      expect(ada.email).toBe('ada@example.com');
      expect(ada.age).toBe(36);
      expect(ada.role).toBe('member');
      expect(ada.createdAt).toBeInstanceOf(Date);
      const stored = await Users.findById(ada._id).lean();
      expect(stored).toMatchObject({ email: 'ada@example.com', name: 'Ada', age: 36, role: 'member', visits: 0 });

      const invalid = await Users.create({ email: 'x@example.com', name: 'X', age: -1, role: 'owner' as never }).catch(
        (error: unknown) => error,
      );
      expect(invalid).toBeInstanceOf(mongoose.Error.ValidationError);
      const errors = (invalid as mongoose.Error.ValidationError).errors;
      expect(Object.keys(errors).sort()).toEqual(['age', 'name', 'role']);
      expect(errors.age.kind).toBe('min');
      expect(errors.role.kind).toBe('enum');
      expect(await Users.countDocuments()).toBe(1);

      const update = await Users.updateOne({ _id: ada._id }, { age: 200 }, { runValidators: true }).catch(
        (error: unknown) => error,
      );
      expect(update).toBeInstanceOf(mongoose.Error.ValidationError);
      const cast = await Users.findById('not-an-object-id').catch((error: unknown) => error);
      expect(cast).toBeInstanceOf(mongoose.Error.CastError);
    },
  );

  test("a unique index violation is the server's E11000 (code 11000 with keyPattern and keyValue)", async () => {
    await Users.create({ email: 'grace@example.com', name: 'Grace' });
    const duplicate = await Users.create({ email: 'GRACE@example.com', name: 'Grace Again' }).catch(
      (error: unknown) => error,
    );
    expect(duplicate).toBeInstanceOf(mongoose.mongo.MongoServerError);
    expect(duplicate).toMatchObject({
      code: 11000,
      keyPattern: { email: 1 },
      keyValue: { email: 'grace@example.com' },
    });
    expect((duplicate as Error).message).toMatch(
      /^E11000 duplicate key error collection: mongoose_documents\.users index: email_1 dup key/,
    );
  });

  test('populate resolves references; lean returns plain objects', async () => {
    const [ada, grace] = await Users.create([
      { email: 'ada@example.com', name: 'Ada' },
      { email: 'grace@example.com', name: 'Grace' },
    ]);
    await Books.create([
      { title: 'Notes', author: ada._id },
      { title: 'Compilers', author: grace._id },
      { title: 'Engines', author: ada._id },
    ]);
    const books = await Books.find().sort({ title: 1 }).populate<{ author: User }>('author', 'name');
    expect(books.map((book) => [book.title, book.author.name])).toEqual([
      ['Compilers', 'Grace'],
      ['Engines', 'Ada'],
      ['Notes', 'Ada'],
    ]);
    expect(books[0].author).toBeInstanceOf(Users);

    const lean = await Books.find({ author: ada._id }).sort({ title: -1 }).lean();
    expect(lean.map((book) => book.title)).toEqual(['Notes', 'Engines']);
    expect(lean[0]).not.toBeInstanceOf(mongoose.Document);
    expect(lean[0].author).toBeInstanceOf(mongoose.Types.ObjectId);
    expect(String(lean[0].author)).toBe(String(ada._id));
    const populatedLean = await Books.findOne({ title: 'Compilers' }).populate<{ author: User }>('author').lean();
    expect(populatedLean?.author.email).toBe('grace@example.com');
  });

  test('findOneAndUpdate with upsert inserts once (with defaults and $setOnInsert), then updates', async () => {
    const upsert = (name: string) =>
      Users.findOneAndUpdate(
        { email: 'linus@example.com' },
        { $set: { name }, $setOnInsert: { age: 21 }, $inc: { visits: 1 } },
        { upsert: true, returnDocument: 'after', includeResultMetadata: true },
      );
    const first = await upsert('Linus');
    expect(first.lastErrorObject).toMatchObject({ updatedExisting: false, n: 1 });
    expect(first.value).toMatchObject({
      email: 'linus@example.com',
      name: 'Linus',
      age: 21,
      visits: 1,
      role: 'member',
    });
    const second = await upsert('Linus T.');
    expect(second.lastErrorObject).toMatchObject({ updatedExisting: true, n: 1 });
    expect(second.value).toMatchObject({ name: 'Linus T.', age: 21, visits: 2 });
    const before = await Users.findOneAndUpdate(
      { email: 'linus@example.com' },
      { $inc: { visits: 1 } },
      { returnDocument: 'before' },
    );
    expect(before?.visits).toBe(2);
    expect(await Users.countDocuments({ email: 'linus@example.com' })).toBe(1);
  });

  test('Query.cursor() streams hydrated documents in order across batches', async () => {
    await Users.insertMany(
      Array.from({ length: 7 }, (_, i) => ({ email: `u${i}@example.com`, name: `User ${i}`, age: 70 - i })),
    );
    const seen: number[] = [];
    for await (const user of Users.find({ age: { $gte: 65 } })
      .sort({ age: 1 })
      .batchSize(2)
      .cursor()) {
      expect(user).toBeInstanceOf(Users);
      seen.push(user.age!);
    }
    expect(seen).toEqual([65, 66, 67, 68, 69, 70]);
    const cursor = Users.find({ age: { $lt: 66 } })
      .sort({ age: -1 })
      .cursor();
    expect((await cursor.next())?.age).toBe(65);
    expect((await cursor.next())?.age).toBe(64);
    expect(await cursor.next()).toBeNull();
    let visited = 0;
    await Users.find()
      .cursor({ batchSize: 3 })
      .eachAsync(() => {
        visited++;
      });
    expect(visited).toBe(7);
  });

  test("syncIndexes creates the schema's indexes and drops the ones it does not declare", async () => {
    const collection = Users.collection;
    await collection.createIndex({ name: 1 }, { name: 'name_1' });
    await collection.dropIndex('age_1');
    const dropped = await Users.syncIndexes();
    expect(dropped).toEqual(['name_1']);
    const names = (await collection.indexes()).map((index) => index.name).sort();
    expect(names).toEqual(['_id_', 'age_1', 'email_1']);
    const emailIndex = (await collection.indexes()).find((index) => index.name === 'email_1');
    expect(emailIndex?.unique).toBe(true);
    expect(await Users.diffIndexes()).toEqual({ toDrop: [], toCreate: [] });
  });
});
