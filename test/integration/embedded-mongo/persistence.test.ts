import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startFixture, stopFixture } from './embedded-mongo-fixture';

describe('embedded mongo: dataDir persistence', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'embedded-mongo-'));
  });
  afterEach(() => rm(dataDir, { recursive: true, force: true }));

  test('documents and indexes survive a restart', async () => {
    const first = await startFixture({ dataDir });
    await first.db.collection('kept').createIndex({ email: 1 }, { unique: true });
    await first.db.collection('kept').insertMany([
      { email: 'a', n: 1 },
      { email: 'b', n: 2 },
    ]);
    await first.db.collection('kept').deleteOne({ email: 'b' });
    await first.db.collection('gone').insertOne({ x: 1 });
    await first.db.collection('gone').drop();
    await stopFixture(first);

    const second = await startFixture({ dataDir });
    try {
      expect(
        await second.db
          .collection('kept')
          .find({}, { projection: { _id: 0 } })
          .toArray(),
      ).toEqual([{ email: 'a', n: 1 }]);
      expect((await second.db.collection('kept').listIndexes().toArray()).map((i) => i.name)).toEqual([
        '_id_',
        'email_1',
      ]);
      await expect(second.db.collection('kept').insertOne({ email: 'a' })).rejects.toMatchObject({ code: 11000 });
      expect(
        await second.db
          .listCollections({}, { nameOnly: true })
          .map((c) => c.name)
          .toArray(),
      ).toEqual(['kept']);
    } finally {
      await stopFixture(second);
    }
  });

  test(':memory: writes nothing', async () => {
    const memory = await startFixture({ dataDir: ':memory:' });
    await memory.db.collection('c').insertOne({ a: 1 });
    await stopFixture(memory);
    expect(await readdir(dataDir)).toEqual([]);
  });
});
