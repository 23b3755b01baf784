import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { EmbeddedMongoOptions } from '../../../src/embedded-mongo';
import { startFixture, stopFixture } from './embedded-mongo-fixture';

/** Creates collections with options and collMod changes, then checks them after a restart on the same data folder. */
async function roundTrip(dataDir: string, engineOptions: EmbeddedMongoOptions): Promise<void> {
  const first = await startFixture({ dataDir, ...engineOptions });
  await first.db.createCollection('checked', {
    validator: { $jsonSchema: { required: ['name'] } },
    collation: { locale: 'en', strength: 2 },
  });
  await first.db.command({ collMod: 'checked', validationLevel: 'moderate', validationAction: 'error' });
  await first.db.collection('checked').createIndex({ name: 1 }, { unique: true });
  await first.db.command({ collMod: 'checked', index: { name: 'name_1', hidden: true } });
  await first.db.collection('checked').createIndex({ at: 1 }, { expireAfterSeconds: 3600 });
  await first.db.command({ collMod: 'checked', index: { name: 'at_1', expireAfterSeconds: 5 } });
  await first.db.collection('checked').insertOne({ name: 'Ann' });
  const ring = await first.db.createCollection('ring', { capped: true, size: 4096, max: 2 });
  await ring.insertMany([{ n: 1 }, { n: 2 }, { n: 3 }]);
  await stopFixture(first);

  const second = await startFixture({ dataDir, ...engineOptions });
  try {
    const [checked] = await second.db.listCollections({ name: 'checked' }, { nameOnly: false }).toArray();
    expect(checked.options).toEqual({
      validator: { $jsonSchema: { required: ['name'] } },
      collation: { locale: 'en', strength: 2 },
      validationLevel: 'moderate',
      validationAction: 'error',
    });
    await expect(second.db.collection('checked').insertOne({ other: 1 })).rejects.toMatchObject({ code: 121 });
    expect(await second.db.collection('checked').countDocuments({ name: 'ANN' })).toBe(1);
    const indexes = await second.db.collection('checked').listIndexes().toArray();
    expect(indexes.find((index) => index.name === 'name_1')).toMatchObject({
      hidden: true,
      unique: true,
      collation: { locale: 'en', strength: 2 },
    });
    expect(indexes.find((index) => index.name === 'at_1')).toMatchObject({ expireAfterSeconds: 5 });
    // The hidden unique index is rebuilt: still enforced, still not used by the planner.
    await expect(second.db.collection('checked').insertOne({ name: 'ann' })).rejects.toMatchObject({ code: 11000 });
    const explained = await second.db.collection('checked').find({ name: 'Ann' }).explain();
    expect(JSON.stringify(explained.queryPlanner)).not.toContain('name_1');

    const ring2 = second.db.collection('ring');
    expect(await ring2.isCapped()).toBe(true);
    expect((await ring2.find().toArray()).map((doc) => doc.n)).toEqual([2, 3]);
    await ring2.insertOne({ n: 4 });
    expect((await ring2.find().toArray()).map((doc) => doc.n)).toEqual([3, 4]);
  } finally {
    await stopFixture(second);
  }
}

describe('embedded mongo: collection options survive a restart with a data folder', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'embedded-mongo-options-'));
  });
  afterEach(() => rm(dataDir, { recursive: true, force: true }));

  test(
    'mongod keeps validator, validation settings, collation, capped ' +
      'bounds, hidden and TTL index changes (journal replay)',
    async () => {
      await roundTrip(dataDir, {});
    },
  );

  test('the same after a snapshot of the journal', async () => {
    await roundTrip(dataDir, { snapshotJournalBytes: 1 });
  });
});
