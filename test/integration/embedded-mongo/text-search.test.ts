import { MongoServerError, type Collection } from 'mongodb';
import { startFixture, stopFixture, type Fixture } from './embedded-mongo-fixture';

describe('embedded mongo: text search', () => {
  let f: Fixture;
  let articles: Collection;
  beforeAll(async () => {
    f = await startFixture();
  });
  afterAll(() => stopFixture(f));
  beforeEach(async () => {
    articles = f.db.collection('articles');
    await articles.drop().catch(() => undefined);
    await articles.insertMany([
      { _id: 1 as never, title: 'Baking bread', body: 'Bread needs flour, water and time. Good bread takes patience.' },
      { _id: 2 as never, title: 'Coffee guide', body: 'Strong coffee and fresh bread make a breakfast.' },
      { _id: 3 as never, title: 'Running shoes', body: 'Runners love cushioned shoes for long runs.' },
      { _id: 4 as never, title: 'Bread', body: 'Sourdough bread with a crisp crust.' },
      { _id: 5 as never, title: 'Tea', body: 'Green tea, no coffee.' },
    ]);
  });

  test('a $text query without a text index is IndexNotFound', async () => {
    const error = await articles
      .find({ $text: { $search: 'bread' } })
      .toArray()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MongoServerError);
    expect(error).toMatchObject({
      code: 27,
      codeName: 'IndexNotFound',
      message: 'text index required for $text query',
    });
  });

  test('only one text index per collection', async () => {
    await articles.createIndex({ title: 'text' });
    await expect(articles.createIndex({ body: 'text' })).rejects.toMatchObject({ code: 85 });
    const [, text] = await articles.listIndexes().toArray();
    expect(text).toMatchObject({ name: 'title_text', weights: { title: 1 }, default_language: 'english' });
  });

  test('results rank by textScore, with weights, in find and aggregate', async () => {
    await articles.createIndex({ title: 'text', body: 'text' }, { weights: { title: 10 } });
    const found = await articles
      .find({ $text: { $search: 'bread' } }, { projection: { score: { $meta: 'textScore' }, title: 1 } })
      .sort({ score: { $meta: 'textScore' } })
      .toArray();
    expect(found.map((doc) => doc._id)).toEqual([4, 1, 2]);
    expect(found[0].score).toBeGreaterThan(found[1].score);
    expect(found[1].score).toBeGreaterThan(found[2].score);
    expect(Object.keys(found[0])).toEqual(['_id', 'title', 'score']);

    const aggregated = await articles
      .aggregate([
        { $match: { $text: { $search: 'coffee bread' } } },
        { $sort: { score: { $meta: 'textScore' } } },
        { $project: { title: 1, score: { $meta: 'textScore' } } },
      ])
      .toArray();
    expect(aggregated.map((doc) => doc._id)).toEqual([4, 2, 1, 5]); // 'Coffee guide' has a title match (weight 10)
    expect(aggregated[0]).toEqual({ _id: 4, title: 'Bread', score: expect.any(Number) });
  });

  test('phrases, negation, stemming and stop words', async () => {
    await articles.createIndex({ title: 'text', body: 'text' });
    const ids = async (search: string, extra: object = {}) =>
      (await articles.find({ $text: { $search: search, ...extra } }).toArray()).map((doc) => doc._id).sort();
    expect(await ids('"fresh bread"')).toEqual([2]);
    expect(await ids('bread -coffee')).toEqual([1, 4]);
    expect(await ids('run')).toEqual([3]);
    expect(await ids('the and')).toEqual([]);
    expect(await ids('COFFEE')).toEqual([2, 5]);
    expect(await ids('COFFEE', { $caseSensitive: true })).toEqual([]);
    expect(await articles.countDocuments({ $text: { $search: 'bread' }, title: /^B/ })).toBe(2);
  });
});
