import { MemoryService } from '../../../../src/adapters/memory';
import { createApp } from '../../../../src/application/app/application';

/** TTL indexes on the memory store: expired records go, once a minute at most, when records are created. */
describe('MemoryService expireAfter', () => {
  const start = new Date('2026-01-01T00:00:00Z').getTime();
  beforeEach(() => jest.useFakeTimers({ now: start }));
  afterEach(() => jest.useRealTimers());

  const ids = async (service: MemoryService) => ((await service.find()) as { id: string }[]).map((record) => record.id);

  it(
    'removes records whose date (or the earliest of an array of ' + 'dates) is that old, never those without a date',
    async () => {
      const service = new MemoryService({ multi: true, expireAfter: [{ field: 'expiresAt', seconds: 30 }] });
      const at = (offsetMs: number) => new Date(start + offsetMs);
      await service.create([
        { id: 'old', expiresAt: at(-60_000) },
        { id: 'young', expiresAt: at(50_000) },
        { id: 'array with an old date', expiresAt: [at(600_000), at(-60_000)] },
        { id: 'not a date', expiresAt: 'yesterday' },
        { id: 'no field' },
      ]);
      // Under a minute since the store began: nothing is looked at yet.
      jest.setSystemTime(start + 59_000);
      await service.create({ id: 'first trigger' });
      expect(await ids(service)).toHaveLength(6);

      jest.setSystemTime(start + 61_000);
      await service.create({ id: 'second trigger' });
      // `young` expires at +80 s (its date + 30 s): not yet.
      expect(await ids(service)).toEqual(['young', 'not a date', 'no field', 'first trigger', 'second trigger']);

      // The next look is a minute later; by then `young` has expired too.
      jest.setSystemTime(start + 100_000);
      await service.create({ id: 'too soon' });
      expect(await ids(service)).toContain('young');
      jest.setSystemTime(start + 122_000);
      await service.create({ id: 'later' });
      expect(await ids(service)).not.toContain('young');
    },
  );

  it('emits no event for what expires, and keeps the insertion order of the rest (id lookups included)', async () => {
    const service = new MemoryService({ multi: true, expireAfter: [{ field: 'expiresAt', seconds: 0 }] });
    const app = createApp().use('records', service);
    const removed: unknown[] = [];
    app.service('records').on('removed', (record: unknown) => removed.push(record));
    await app
      .service('records')
      .create([
        { id: 'a', expiresAt: new Date(start - 1) },
        { id: 'b' },
        { id: 'c', expiresAt: new Date(start - 1) },
        { id: 'd' },
      ]);
    jest.setSystemTime(start + 60_000);
    await app.service('records').create({ id: 'e' });
    expect(await ids(service)).toEqual(['b', 'd', 'e']);
    expect(removed).toEqual([]);
    expect(await service.find({ query: { id: { $in: ['e', 'a', 'b'] } } })).toEqual([{ id: 'b' }, { id: 'e' }]);
  });
});
