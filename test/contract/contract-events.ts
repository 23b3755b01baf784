import { expectServiceError, MISSING_IDS, sortedNames, useService, type Person } from './contract-fixture';
import type { ContractService, ContractServiceOptions, ContractTarget } from './contract-types';

const STANDARD_EVENTS = ['created', 'updated', 'patched', 'removed'] as const;
type Recorded = Record<(typeof STANDARD_EVENTS)[number], any[]>;

/** Records every standard event of a service until the returned `stop` is called. */
function listen(service: ContractService): { events: Recorded; stop(): void } {
  if (typeof service.on !== 'function')
    throw new Error('the contract expects a service with on() (a hooked service registered in an app)');
  const events: Recorded = { created: [], updated: [], patched: [], removed: [] };
  const listeners = STANDARD_EVENTS.map((name) => [name, (payload: unknown) => events[name].push(payload)] as const);
  for (const [name, listener] of listeners) service.on(name, listener);
  return {
    events,
    stop: () => {
      for (const [name, listener] of listeners) service.off?.(name, listener);
    },
  };
}

/** `created`/`updated`/`patched`/`removed` after successful calls only, once per record. */
export function describeEvents(target: ContractTarget, base: ContractServiceOptions): void {
  const SEED: Person[] = [
    { name: 'Dave', age: 10, group: 'team' },
    { name: 'David', age: 11, group: 'team' },
  ];

  describe('with multi true', () => {
    const fx = useService(target, { ...base, multi: true }, SEED);
    let recorder: ReturnType<typeof listen>;
    beforeEach(() => {
      recorder = listen(fx.service);
    });
    afterEach(() => recorder.stop());

    it('create emits created once with the new record', async () => {
      const created = await fx.service.create({ name: 'Eve', age: 40 });
      expect(recorder.events.created).toHaveLength(1);
      expect(recorder.events.created[0]).toEqual(created);
    });

    it('create with an array emits created once per record', async () => {
      await fx.service.create([
        { name: 'Eve', age: 40 },
        { name: 'Fay', age: 41 },
      ]);
      expect(sortedNames(recorder.events.created)).toEqual(['Eve', 'Fay']);
    });

    it('update emits updated with the new record', async () => {
      const updated = await fx.service.update(fx.idOf(fx.seeded.Dave), { name: 'Dave II', age: 12 });
      expect(recorder.events.updated).toEqual([updated]);
    });

    it('patch emits patched with the patched record', async () => {
      const patched = await fx.service.patch(fx.idOf(fx.seeded.Dave), { age: 12 });
      expect(recorder.events.patched).toEqual([patched]);
      expect(recorder.events.patched[0]).toMatchObject({ name: 'Dave', age: 12 });
    });

    it('patch with a null id emits patched once per record', async () => {
      await fx.service.patch(null, { age: 1 }, { query: { group: 'team' } });
      expect(sortedNames(recorder.events.patched)).toEqual(['Dave', 'David']);
    });

    it('remove emits removed with the removed record', async () => {
      const removed = await fx.service.remove(fx.idOf(fx.seeded.David));
      expect(recorder.events.removed).toEqual([removed]);
    });

    it('remove with a null id emits removed once per record', async () => {
      await fx.service.remove(null, { query: { group: 'team' } });
      expect(sortedNames(recorder.events.removed)).toEqual(['Dave', 'David']);
    });

    it('find and get emit nothing', async () => {
      await fx.service.find();
      await fx.service.get(fx.idOf(fx.seeded.Dave));
      expect(Object.values(recorder.events).flat()).toEqual([]);
    });

    it('failed calls emit nothing', async () => {
      const missing = MISSING_IDS[0];
      await expectServiceError(fx.service.update(missing, { name: 'X' }), 'NotFound', 404);
      await expectServiceError(fx.service.patch(missing, { name: 'X' }), 'NotFound', 404);
      await expectServiceError(fx.service.remove(missing), 'NotFound', 404);
      await expectServiceError(fx.service.create({ name: 'X' }, { query: { $foo: 1 } }), 'BadRequest', 400);
      await expectServiceError(fx.service.patch(null, { age: 1 }, { query: { $foo: 1 } }), 'BadRequest', 400);
      expect(Object.values(recorder.events).flat()).toEqual([]);
    });
  });

  describe('with multi disabled', () => {
    const fx = useService(target, { ...base, multi: false }, SEED);

    it('refused multi calls emit nothing', async () => {
      const recorder = listen(fx.service);
      try {
        await expectServiceError(fx.service.create([{ name: 'X', age: 1 }]), 'MethodNotAllowed', 405);
        await expectServiceError(fx.service.patch(null, { age: 1 }), 'MethodNotAllowed', 405);
        await expectServiceError(fx.service.remove(null), 'MethodNotAllowed', 405);
        expect(Object.values(recorder.events).flat()).toEqual([]);
      } finally {
        recorder.stop();
      }
    });
  });
}
