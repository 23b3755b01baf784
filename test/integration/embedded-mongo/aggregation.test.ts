import { ObjectId } from 'mongodb';
import { startFixture, stopFixture, type Fixture } from './embedded-mongo-fixture';

describe('embedded mongo: aggregation', () => {
  let f: Fixture;
  beforeAll(async () => {
    f = await startFixture();
    await f.db.collection('authors').insertMany([
      { _id: 1 as never, name: 'ann', boss: null },
      { _id: 2 as never, name: 'bob', boss: 1 },
      { _id: 3 as never, name: 'cy', boss: 2 },
    ]);
    await f.db.collection('books').insertMany([
      { _id: 10 as never, title: 'A', author: 1 },
      { _id: 11 as never, title: 'B', author: 1 },
      { _id: 12 as never, title: 'C', author: 2 },
    ]);
  });
  afterAll(() => stopFixture(f));

  test('$lookup joins two collections', async () => {
    const rows = await f.db
      .collection('authors')
      .aggregate([
        { $lookup: { from: 'books', localField: '_id', foreignField: 'author', as: 'books' } },
        { $project: { name: 1, titles: '$books.title' } },
        { $sort: { _id: 1 } },
      ])
      .toArray();
    expect(rows).toEqual([
      { _id: 1, name: 'ann', titles: ['A', 'B'] },
      { _id: 2, name: 'bob', titles: ['C'] },
      { _id: 3, name: 'cy', titles: [] },
    ]);
    expect(Object.keys(rows[0])[0]).toBe('_id');
  });

  test('$lookup with let/pipeline, $graphLookup and $unionWith', async () => {
    const [ann] = await f.db
      .collection('authors')
      .aggregate([
        { $match: { _id: 1 } },
        {
          $lookup: {
            from: 'books',
            let: { a: '$_id' },
            pipeline: [{ $match: { $expr: { $eq: ['$author', '$$a'] } } }, { $count: 'n' }],
            as: 'c',
          },
        },
      ])
      .toArray();
    expect(ann.c).toEqual([{ n: 2 }]);
    const [cy] = await f.db
      .collection('authors')
      .aggregate([
        { $match: { _id: 3 } },
        {
          $graphLookup: {
            from: 'authors',
            startWith: '$boss',
            connectFromField: 'boss',
            connectToField: '_id',
            as: 'chain',
          },
        },
      ])
      .toArray();
    expect(cy.chain.map((a: { name: string }) => a.name).sort()).toEqual(['ann', 'bob']);
    const union = await f.db
      .collection('authors')
      .aggregate([{ $project: { _id: 1 } }, { $unionWith: { coll: 'books', pipeline: [{ $project: { _id: 1 } }] } }])
      .toArray();
    expect(union).toHaveLength(6);
  });

  test('$out and $merge write through the server (indexes included)', async () => {
    await f.db
      .collection('authors')
      .aggregate([{ $match: { boss: { $ne: null } } }, { $out: 'managed' }])
      .toArray();
    expect(await f.db.collection('managed').countDocuments()).toBe(2);
    await f.db
      .collection('books')
      .aggregate([
        { $group: { _id: '$author', n: { $sum: 1 } } },
        { $merge: { into: 'managed', whenMatched: 'merge' } },
      ])
      .toArray();
    expect(await f.db.collection('managed').findOne({ _id: 2 as never })).toEqual({
      _id: 2,
      name: 'bob',
      boss: 1,
      n: 1,
    });
    expect(await f.db.collection('managed').findOne({ _id: 1 as never })).toEqual({ _id: 1, n: 2 });
  });

  test('let variables and $toObjectId', async () => {
    const hex = '5f1d7a3e9b1e8a2b3c4d5e6f';
    const [row] = await f.db
      .collection('authors')
      .aggregate(
        [
          { $match: { $expr: { $eq: ['$name', '$$who'] } } },
          { $project: { _id: 0, oid: { $toObjectId: hex }, who: '$$who' } },
        ],
        {
          let: { who: { $concat: ['a', 'nn'] } },
        },
      )
      .toArray();
    expect(row.oid).toEqual(new ObjectId(hex));
    expect(row.who).toBe('ann');
  });

  test('ObjectId values compare by value in filters, $in and $group', async () => {
    const id = new ObjectId();
    await f.db
      .collection('oids')
      .insertMany([{ ref: id }, { ref: new ObjectId(id.toHexString()) }, { ref: new ObjectId() }]);
    expect(await f.db.collection('oids').countDocuments({ ref: new ObjectId(id.toHexString()) })).toBe(2);
    expect(await f.db.collection('oids').countDocuments({ ref: { $in: [id] } })).toBe(2);
    const groups = await f.db
      .collection('oids')
      .aggregate([{ $group: { _id: '$ref', n: { $sum: 1 } } }])
      .toArray();
    expect(groups.map((g) => g.n).sort()).toEqual([1, 2]);
  });

  test('database-level aggregate with $documents', async () => {
    const rows = await f.db.aggregate([{ $documents: [{ x: 1 }, { x: 2 }] }, { $match: { x: 2 } }]).toArray();
    expect(rows).toEqual([{ x: 2 }]);
  });
});
