import mongoose, { Schema, type Model } from 'mongoose';
import { startMongoose, stopMongoose, type MongooseFixture } from './mongoose-fixture';

interface Team {
  name: string;
  members: Array<{ name: string; score: number }>;
  tags: string[];
  hq?: { type: 'Point'; coordinates: number[] };
}

describe('Mongoose on the embedded server: saving, arrays, collation and geo helpers', () => {
  let f: MongooseFixture;
  let Teams: Model<Team>;
  beforeAll(async () => {
    f = await startMongoose('mongoose_teams');
    const schema = new Schema<Team>(
      {
        name: String,
        members: [{ _id: false, name: String, score: Number }],
        tags: [String],
        hq: { type: { type: String, enum: ['Point'] }, coordinates: [Number] },
      },
      { optimisticConcurrency: true },
    );
    schema.index({ hq: '2dsphere' });
    Teams = f.connection.model<Team>('Team', schema);
    await Teams.init();
  });
  afterAll(() => stopMongoose(f));
  beforeEach(async () => {
    await Teams.deleteMany({});
  });

  test('save() versions documents and refuses a stale copy (optimistic concurrency)', async () => {
    const team = await Teams.create({ name: 'Red', members: [{ name: 'a', score: 1 }], tags: [] });
    expect(team.__v).toBe(0);
    const copy = await Teams.findById(team._id).orFail();
    team.members.push({ name: 'b', score: 2 });
    await team.save();
    expect((await Teams.findById(team._id).lean())?.__v).toBe(1);
    copy.name = 'Stale';
    await expect(copy.save()).rejects.toBeInstanceOf(mongoose.Error.VersionError);
    expect((await Teams.findById(team._id).lean())?.name).toBe('Red');
  });

  test('array updates: $push with $each / $sort / $slice, arrayFilters, $addToSet and $pull', async () => {
    const team = await Teams.create({ name: 'Blue', members: [{ name: 'a', score: 5 }], tags: ['x'] });
    await Teams.updateOne(
      { _id: team._id },
      {
        $push: {
          members: {
            $each: [
              { name: 'b', score: 9 },
              { name: 'c', score: 1 },
            ],
            $sort: { score: -1 },
            $slice: 2,
          },
        },
        $addToSet: { tags: { $each: ['x', 'y'] } },
      },
    );
    await Teams.updateOne(
      { _id: team._id },
      { $inc: { 'members.$[low].score': 10 } },
      { arrayFilters: [{ 'low.score': { $lt: 6 } }] },
    );
    await Teams.updateOne({ _id: team._id }, { $pull: { tags: 'x' } });
    const updated = await Teams.findById(team._id).lean();
    expect(updated?.members).toEqual([
      { name: 'b', score: 9 },
      { name: 'a', score: 15 },
    ]);
    expect(updated?.tags).toEqual(['y']);
  });

  test('queries with collation, distinct, exists and counts', async () => {
    await Teams.create([{ name: 'alpha' }, { name: 'Alpha' }, { name: 'beta' }]);
    expect(await Teams.countDocuments({ name: 'ALPHA' }).collation({ locale: 'en', strength: 2 })).toBe(2);
    expect((await Teams.distinct('name')).sort()).toEqual(['Alpha', 'alpha', 'beta']);
    expect(await Teams.exists({ name: 'beta' })).toMatchObject({ _id: expect.any(mongoose.Types.ObjectId) });
    expect(await Teams.exists({ name: 'gamma' })).toBeNull();
    expect(await Teams.estimatedDocumentCount()).toBe(3);
    const sorted = await Teams.find().sort({ name: 1 }).collation({ locale: 'en' }).select('-_id name').lean();
    expect(sorted.map((team) => team.name)).toEqual(['alpha', 'Alpha', 'beta']);
  });

  test('Query near() and Aggregate near() use the 2dsphere index', async () => {
    await Teams.create([
      { name: 'far', hq: { type: 'Point', coordinates: [5, 5] } },
      { name: 'near', hq: { type: 'Point', coordinates: [0.1, 0] } },
      { name: 'mid', hq: { type: 'Point', coordinates: [1, 0] } },
    ]);
    const found = await Teams.find()
      .where('hq')
      .near({ center: { type: 'Point', coordinates: [0, 0] }, maxDistance: 200_000, spherical: true })
      .lean();
    expect(found.map((team) => team.name)).toEqual(['near', 'mid']);
    const measured = await Teams.aggregate<{ name: string; km: number }>()
      .near({
        near: { type: 'Point', coordinates: [0, 0] },
        distanceField: 'km',
        distanceMultiplier: 0.001,
        spherical: true,
      })
      .project({ _id: 0, name: 1, km: 1 });
    expect(measured.map((row) => row.name)).toEqual(['near', 'mid', 'far']);
    expect(measured[1].km).toBeCloseTo((Math.PI / 180) * 6378.1, 6);
  });
});
