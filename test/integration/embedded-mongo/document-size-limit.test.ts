import { startFixture, stopFixture, type Fixture } from './embedded-mongo-fixture';

const MAX_BSON_SIZE = 16 * 1024 * 1024;

describe('embedded mongo: the 16 MiB document limit', () => {
  let fixture: Fixture;
  beforeAll(async () => {
    fixture = await startFixture();
  });
  afterAll(() => stopFixture(fixture));

  test('mongod refuses to insert a document over 16 MiB with code 10334 (BSONObjectTooLarge)', async () => {
    // Just over the limit: the driver still sends it (commands may exceed it by 16 KiB).
    const big = { payload: 'x'.repeat(MAX_BSON_SIZE) };
    await expect(fixture.db.collection('big').insertOne(big)).rejects.toMatchObject({
      code: 10334,
      codeName: 'BSONObjectTooLarge',
    });
    expect(await fixture.db.collection('big').countDocuments()).toBe(0);
  });

  test(
    'mongod fails an update whose result is over 16 MiB with code ' + '17419, leaving the document unchanged',
    async () => {
      const docs = fixture.db.collection('growing');
      const half = 'y'.repeat(9 * 1024 * 1024);
      await docs.insertOne({ _id: 1 as never, a: half });
      await expect(docs.updateOne({ _id: 1 as never }, { $set: { b: half } })).rejects.toMatchObject({ code: 17419 });
      await expect(docs.findOneAndUpdate({ _id: 1 as never }, { $set: { b: half } })).rejects.toMatchObject({
        code: 17419,
      });
      const stored = await docs.findOne({ _id: 1 as never });
      expect(Object.keys(stored ?? {})).toEqual(['_id', 'a']);
    },
  );
});
