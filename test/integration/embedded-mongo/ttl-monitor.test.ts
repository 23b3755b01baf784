import { setTimeout as sleep } from 'node:timers/promises';
import type { Collection } from 'mongodb';
import { startFixture, stopFixture, type Fixture } from './embedded-mongo-fixture';

/** Polls (at most 5 s, every 100 ms) until the collection holds `count` documents; their ids, sorted. */
async function idsOnceCount<T extends { _id: string }>(collection: Collection<T>, count: number): Promise<string[]> {
  for (let attempt = 0; attempt < 50 && (await collection.countDocuments()) !== count; attempt++) await sleep(100);
  return (await collection.find().toArray()).map((doc) => String(doc._id)).sort();
}

describe('embedded mongo: the TTL monitor deletes what TTL indexes have expired, as mongod does', () => {
  let fixture: Fixture;
  const past = new Date(Date.now() - 60_000);
  const future = new Date(Date.now() + 3_600_000);

  beforeAll(async () => {
    fixture = await startFixture();
  });
  afterAll(() => stopFixture(fixture));

  test(
    'dates (or arrays with one) older than expireAfterSeconds go, within the ' +
      'partial filter, seen by change streams as deletes',
    async () => {
      const sessions = fixture.db.collection<{ _id: string; expiresAt?: unknown }>('ttlSessions');
      await sessions.createIndex({ expiresAt: 1 }, { expireAfterSeconds: 0 });
      await sessions.insertMany([
        { _id: 'past', expiresAt: past },
        { _id: 'future', expiresAt: future },
        { _id: 'not a date', expiresAt: 'yesterday' },
        { _id: 'no field' },
        { _id: 'array with a past date', expiresAt: [future, past] },
      ]);
      const temporary = fixture.db.collection<{ _id: string; kind: string; at: Date }>('ttlPartial');
      await temporary.createIndex(
        { at: 1 },
        { expireAfterSeconds: 30, partialFilterExpression: { kind: 'temporary' } },
      );
      await temporary.insertMany([
        { _id: 'old temporary', kind: 'temporary', at: past },
        { _id: 'old kept', kind: 'kept', at: past },
        { _id: 'young temporary', kind: 'temporary', at: new Date() },
      ]);
      const changes = sessions.watch();
      const deleted: unknown[] = [];
      changes.on('change', (change) =>
        deleted.push(change.operationType === 'delete' ? change.documentKey._id : change.operationType),
      );
      // Every 60 s by default, as mongod; a second here.
      await fixture.db.admin().command({ setParameter: 1, ttlMonitorSleepSecs: 1 });

      expect(await idsOnceCount(sessions, 3)).toEqual(['future', 'no field', 'not a date']);
      expect(await idsOnceCount(temporary, 2)).toEqual(['old kept', 'young temporary']);
      for (let attempt = 0; attempt < 50 && deleted.length < 2; attempt++) await sleep(100);
      await changes.close();
      expect(deleted.sort()).toEqual(['array with a past date', 'past']);
    },
  );

  test('ttlMonitorEnabled: false stops it, true starts it again', async () => {
    const admin = fixture.db.admin();
    await admin.command({ setParameter: 1, ttlMonitorSleepSecs: 1, ttlMonitorEnabled: false });
    const links = fixture.db.collection<{ _id: string; expiresAt: Date }>('ttlLinks');
    await links.createIndex({ expiresAt: 1 }, { expireAfterSeconds: 0 });
    await links.insertOne({ _id: 'expired', expiresAt: past });
    await sleep(2_500);
    expect(await links.countDocuments()).toBe(1);
    await admin.command({ setParameter: 1, ttlMonitorEnabled: true });
    expect(await idsOnceCount(links, 0)).toEqual([]);
  });
});
