import type { Collection, Document } from 'mongodb';
import { startFixture, stopFixture, type Fixture } from './embedded-mongo-fixture';

describe('embedded mongo: $slice and $elemMatch projections as in mongod 7', () => {
  let f: Fixture;
  let posts: Collection<Document>;
  beforeAll(async () => {
    f = await startFixture();
    posts = f.db.collection('projection_posts');
    await posts.insertMany([
      {
        _id: 1 as never,
        title: 't1',
        arr: [1, 2, 3, 4, 5],
        nested: { list: [1, 2, 3] },
        scores: [{ s: 1 }, { s: 7 }, { s: 9 }],
      },
      { _id: 2 as never, title: 't2', arr: [9], nested: { list: [] }, scores: [] },
    ]);
  });
  afterAll(() => stopFixture(f));

  const first = (projection: Document) => posts.findOne({ _id: 1 as never }, { projection });

  test('mongod keeps every other field when a projection has only $slice entries', async () => {
    expect(await first({ arr: { $slice: 2 } })).toEqual({
      _id: 1,
      title: 't1',
      arr: [1, 2],
      nested: { list: [1, 2, 3] },
      scores: [{ s: 1 }, { s: 7 }, { s: 9 }],
    });
    expect(await first({ arr: { $slice: -2 }, 'nested.list': { $slice: 1 } })).toMatchObject({
      arr: [4, 5],
      nested: { list: [1] },
      title: 't1',
    });
    expect((await first({ arr: { $slice: [1, 2] } }))?.arr).toEqual([2, 3]);
    expect((await first({ arr: { $slice: [-2, 5] } }))?.arr).toEqual([4, 5]);
  });

  test('mongod accepts $slice with an exclusion (other fields are kept, the excluded one dropped)', async () => {
    expect(await first({ arr: { $slice: 2 }, scores: 0, nested: 0 })).toEqual({ _id: 1, title: 't1', arr: [1, 2] });
    expect(await first({ arr: { $slice: 1 }, _id: 0, title: 0, nested: 0, scores: 0 })).toEqual({ arr: [1] });
  });

  test('mongod treats $slice beside an inclusion as including the sliced field', async () => {
    expect(await first({ title: 1, arr: { $slice: 1 } })).toEqual({ _id: 1, title: 't1', arr: [1] });
  });

  test('mongod $elemMatch projection with operator-only conditions returns the first matching element', async () => {
    expect(await first({ arr: { $elemMatch: { $in: [3, 4] } } })).toEqual({ _id: 1, arr: [3] });
    expect(await first({ arr: { $elemMatch: { $gte: 3 } }, title: 1 })).toEqual({ _id: 1, title: 't1', arr: [3] });
    // No element matches: the field is left out.
    expect(await first({ arr: { $elemMatch: { $gt: 100 } } })).toEqual({ _id: 1 });
  });

  test('mongod $elemMatch projection with a field condition, and through find on several documents', async () => {
    expect(await first({ scores: { $elemMatch: { s: { $gt: 5 } } } })).toEqual({ _id: 1, scores: [{ s: 7 }] });
    const all = await posts
      .find({}, { projection: { scores: { $elemMatch: { $or: [{ s: 9 }, { s: 1 }] } }, _id: 0 }, sort: { _id: 1 } })
      .toArray();
    expect(all).toEqual([{ scores: [{ s: 1 }] }, {}]);
  });
});
