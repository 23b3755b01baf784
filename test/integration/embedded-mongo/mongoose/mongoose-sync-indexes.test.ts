import mongoose, { Schema, type Connection } from 'mongoose';
import { startMongoose, stopMongoose, type MongooseFixture } from './mongoose-fixture';

/** Two models as an application defines them at every start: a weighted text index, and a compound one. */
function defineModels(connection: Connection) {
  const articleSchema = new Schema({ title: String, body: String, slug: String });
  articleSchema.index({ title: 'text', body: 'text' }, { weights: { title: 5 } });
  articleSchema.index({ slug: 1 }, { unique: true });
  const productSchema = new Schema({ category: String, name: String, sku: String });
  productSchema.index({ category: 1, name: 'text' });
  return { Article: connection.model('Article', articleSchema), Product: connection.model('Product', productSchema) };
}

describe('Mongoose syncIndexes() against the embedded server', () => {
  let f: MongooseFixture;
  beforeAll(async () => {
    f = await startMongoose('mongoose_sync_indexes');
  });
  afterAll(() => stopMongoose(f));

  test(
    'mongod lists a text index as { _fts: "text", _ftsx: 1 } with weights, languages ' +
      'and textIndexVersion 3, so a second start drops nothing',
    async () => {
      const first = defineModels(f.connection);
      expect(await first.Article.syncIndexes()).toEqual([]);
      expect(await first.Product.syncIndexes()).toEqual([]);
      const listed = await first.Article.collection.listIndexes().toArray();
      expect(listed.find((index) => index.name === 'title_text_body_text')).toMatchObject({
        key: { _fts: 'text', _ftsx: 1 },
        weights: { title: 5, body: 1 },
        default_language: 'english',
        language_override: 'language',
        textIndexVersion: 3,
      });
      const compound = await first.Product.collection.listIndexes().toArray();
      expect(compound.find((index) => index.name === 'category_1_name_text')?.key).toEqual({
        category: 1,
        _fts: 'text',
        _ftsx: 1,
      });

      // A second start of the application: a new connection defines the same models and syncs again.
      const restarted = await mongoose
        .createConnection(f.server.url, { dbName: 'mongoose_sync_indexes', serverSelectionTimeoutMS: 3000 })
        .asPromise();
      try {
        const again = defineModels(restarted);
        expect(await again.Article.syncIndexes()).toEqual([]);
        expect(await again.Product.syncIndexes()).toEqual([]);
        expect(await again.Article.diffIndexes()).toEqual({ toDrop: [], toCreate: [] });
        expect(await again.Article.collection.listIndexes().toArray()).toEqual(listed);
      } finally {
        await restarted.close();
      }
    },
  );

  test('creating the same text index again is a no-op, as in mongod; a different one conflicts (code 85)', async () => {
    const articles = f.connection.db!.collection('articles');
    const reply = await f.connection.db!.command({
      createIndexes: 'articles',
      indexes: [{ key: { title: 'text', body: 'text' }, name: 'title_text_body_text', weights: { title: 5 } }],
    });
    expect(reply).toMatchObject({ note: 'all indexes already exist', ok: 1 });
    await expect(articles.createIndex({ slug: 'text' })).rejects.toMatchObject({ code: 85 });
    const articleText = await articles.find({ $text: { $search: 'hello' } }).toArray();
    expect(articleText).toEqual([]);
  });
});
