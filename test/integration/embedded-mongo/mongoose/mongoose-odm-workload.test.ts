import mongoose, { Schema, type Model } from 'mongoose';
import { startMongoose, stopMongoose, type MongooseFixture } from './mongoose-fixture';

/**
 * A wider ODM workload, as an application on Mongoose uses MongoDB: virtual and nested populate,
 * discriminators, middleware, validated and upserting findOneAndUpdate, array filters, transactions
 * through `withTransaction` (the server is a replica set), cursors, duplicate keys in unordered
 * inserts, `$lookup` with a pipeline. Each expectation is what MongoDB 7 with Mongoose gives.
 */
describe('Mongoose: a wider application workload on the embedded server', () => {
  let fixture: MongooseFixture;
  let Authors: Model<any>;
  let Posts: Model<any>;
  let Comments: Model<any>;
  let Events: Model<any>;
  const saved: string[] = [];

  beforeAll(async () => {
    fixture = await startMongoose('odm_workload');
    const connection = fixture.connection;
    const authorSchema = new Schema(
      { name: { type: String, required: true }, email: { type: String, unique: true } },
      { toJSON: { virtuals: true }, toObject: { virtuals: true } },
    );
    authorSchema.virtual('posts', { ref: 'Post', localField: '_id', foreignField: 'author' });
    authorSchema.pre('save', function (this: { name: string }) {
      saved.push(this.name);
    });
    Authors = connection.model('Author', authorSchema);
    Posts = connection.model(
      'Post',
      new Schema(
        {
          title: { type: String, required: true, minlength: 3 },
          author: { type: Schema.Types.ObjectId, ref: 'Author' },
          tags: [String],
          ratings: [{ by: String, stars: Number }],
        },
        { timestamps: true },
      ),
    );
    Comments = connection.model(
      'Comment',
      new Schema({
        post: { type: Schema.Types.ObjectId, ref: 'Post' },
        by: { type: Schema.Types.ObjectId, ref: 'Author' },
        text: String,
      }),
    );
    const eventSchema = new Schema({ at: Date }, { discriminatorKey: 'kind' });
    Events = connection.model('Event', eventSchema);
    await Promise.all([Authors.init(), Posts.init(), Comments.init(), Events.init()]);
  });

  afterAll(() => stopMongoose(fixture));

  test('virtual populate and nested populate resolve through their references', async () => {
    const ada = await Authors.create({ name: 'Ada', email: 'ada@example.com' });
    const bob = await Authors.create({ name: 'Bob', email: 'bob@example.com' });
    const post = await Posts.create({ title: 'Engines', author: ada._id, tags: ['math'] });
    await Posts.create({ title: 'Looms', author: ada._id });
    await Comments.create({ post: post._id, by: bob._id, text: 'nice' });
    expect(saved).toEqual(['Ada', 'Bob']);
    const withPosts = await Authors.findById(ada._id).populate({ path: 'posts', options: { sort: { title: 1 } } });
    expect(withPosts!.posts.map((p: { title: string }) => p.title)).toEqual(['Engines', 'Looms']);
    const comment = await Comments.findOne({ text: 'nice' })
      .populate({ path: 'post', populate: { path: 'author', select: 'name' } })
      .populate('by', 'name')
      .lean<any>();
    expect(comment.post.author.name).toBe('Ada');
    expect(comment.by.name).toBe('Bob');
    const matched = await Posts.find({ author: ada._id })
      .populate({ path: 'author', match: { name: 'Nobody' } })
      .lean<any[]>();
    expect(matched.map((p) => p.author)).toEqual([null, null]);
  });

  test('discriminators store their key and query by it', async () => {
    const Click = Events.discriminator('Click', new Schema({ x: Number }));
    const View = Events.discriminator('View', new Schema({ page: String }));
    await Click.create({ at: new Date(), x: 3 });
    await View.create({ at: new Date(), page: '/home' });
    expect(await Click.countDocuments()).toBe(1);
    expect(await Events.countDocuments()).toBe(2);
    expect((await Events.find().sort({ kind: 1 }).lean<any[]>()).map((e) => e.kind)).toEqual(['Click', 'View']);
  });

  test(
    'findOneAndUpdate validates, upserts, returns the new ' + 'document, and updates array elements by filter',
    async () => {
      await expect(
        Posts.findOneAndUpdate({ title: 'Engines' }, { title: 'no' }, { runValidators: true }),
      ).rejects.toBeInstanceOf(mongoose.Error.ValidationError);
      const upserted = await Posts.findOneAndUpdate(
        { title: 'Gears' },
        { $set: { tags: ['new'] } },
        { upsert: true, returnDocument: 'after' },
      );
      expect(upserted!.title).toBe('Gears');
      expect(upserted!.createdAt).toBeInstanceOf(Date);
      await Posts.updateOne(
        { title: 'Engines' },
        {
          $push: {
            ratings: {
              $each: [
                { by: 'a', stars: 2 },
                { by: 'b', stars: 5 },
              ],
            },
          },
        },
      );
      await Posts.updateOne(
        { title: 'Engines' },
        { $inc: { 'ratings.$[low].stars': 1 } },
        { arrayFilters: [{ 'low.stars': { $lt: 3 } }] },
      );
      expect(
        (await Posts.findOne({ title: 'Engines' }).lean<any>()).ratings.map((r: { stars: number }) => r.stars),
      ).toEqual([3, 5]);
    },
  );

  test('withTransaction commits together, and an error inside aborts everything', async () => {
    const session = await fixture.connection.startSession();
    try {
      await session.withTransaction(async () => {
        await Authors.create([{ name: 'Cy', email: 'cy@example.com' }], { session });
        await Posts.create([{ title: 'Together', author: null }], { session });
      });
      expect(await Authors.exists({ email: 'cy@example.com' })).not.toBeNull();
      await expect(
        session.withTransaction(async () => {
          await Authors.create([{ name: 'Dee', email: 'dee@example.com' }], { session });
          throw new Error('changed my mind');
        }),
      ).rejects.toThrow('changed my mind');
      expect(await Authors.exists({ email: 'dee@example.com' })).toBeNull();
    } finally {
      await session.endSession();
    }
  });

  test('unordered inserts keep the valid documents and report the duplicate keys', async () => {
    const error = await Authors.insertMany(
      [
        { name: 'E', email: 'e@example.com' },
        { name: 'A2', email: 'ada@example.com' },
        { name: 'F', email: 'f@example.com' },
      ],
      { ordered: false },
    ).catch((caught: unknown) => caught as { code?: number; insertedDocs?: unknown[] });
    expect(error).toMatchObject({ code: 11000 });
    expect(await Authors.countDocuments({ email: { $in: ['e@example.com', 'f@example.com'] } })).toBe(2);
  });

  test('cursors stream every document, and distinct and aggregate $lookup with a pipeline agree', async () => {
    const titles: string[] = [];
    for await (const post of Posts.find().sort({ title: 1 }).cursor({ batchSize: 2 })) titles.push(post.title);
    expect(titles).toEqual([...titles].sort());
    expect(titles.length).toBeGreaterThanOrEqual(4);
    expect((await Posts.distinct('tags')).sort()).toEqual(['math', 'new']);
    const counts = await Authors.aggregate([
      { $match: { name: { $in: ['Ada', 'Bob'] } } },
      {
        $lookup: {
          from: 'posts',
          let: { id: '$_id' },
          pipeline: [{ $match: { $expr: { $eq: ['$author', '$$id'] } } }, { $count: 'n' }],
          as: 'written',
        },
      },
      { $project: { _id: 0, name: 1, posts: { $ifNull: [{ $first: '$written.n' }, 0] } } },
      { $sort: { name: 1 } },
    ]);
    expect(counts).toEqual([
      { name: 'Ada', posts: 2 },
      { name: 'Bob', posts: 0 },
    ]);
  });
});
