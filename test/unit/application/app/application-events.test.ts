import { createApp } from '../../../../src/application/app/application';
import type { HookContext } from '../../../../src/application/hooks/hook-context';

function crud(overrides: Record<string, unknown> = {}) {
  return {
    find: async () => [{ id: 1 }],
    get: async (id: unknown) => ({ id }),
    create: async (data: unknown) => data,
    update: async (id: unknown, data: object) => ({ id, ...data }),
    patch: async (id: unknown, data: object) =>
      id === null
        ? [
            { id: 1, ...data },
            { id: 2, ...data },
          ]
        : { id, ...data },
    remove: async (id: unknown) => ({ id }),
    ...overrides,
  };
}

function record(service: any, names: string[]): Array<[string, unknown, HookContext]> {
  const seen: Array<[string, unknown, HookContext]> = [];
  for (const name of names)
    service.on(name, (payload: unknown, context: HookContext) => seen.push([name, payload, context]));
  return seen;
}

const STANDARD = ['created', 'updated', 'patched', 'removed'];

describe('service events', () => {
  it('each writing method emits its event with the result and the context', async () => {
    const app = createApp();
    app.use('svc', crud());
    const service = app.service('svc');
    const seen = record(service, STANDARD);
    await service.create({ a: 1 });
    await service.update(1, { b: 2 });
    await service.patch(1, { c: 3 });
    await service.remove(1);
    expect(seen.map(([name, payload]) => [name, payload])).toEqual([
      ['created', { a: 1 }],
      ['updated', { id: 1, b: 2 }],
      ['patched', { id: 1, c: 3 }],
      ['removed', { id: 1 }],
    ]);
    expect(seen[0][2]).toMatchObject({ method: 'create', path: 'svc' });
  });

  it('is emitted by the time the call resolves, and only after the hooks succeeded', async () => {
    const app = createApp();
    app.use('svc', crud());
    const service = app.service('svc');
    const seen = record(service, ['created']);
    service.hooks({ after: { create: [() => void expect(seen).toHaveLength(0)] } });
    await service.create({ a: 1 });
    expect(seen).toHaveLength(1);
  });

  it('emits once per record for array results', async () => {
    const app = createApp();
    app.use('svc', crud());
    const service = app.service('svc');
    const seen = record(service, ['created', 'patched']);
    await service.create([{ n: 1 }, { n: 2 }, { n: 3 }]);
    await service.patch(null, { x: true });
    expect(seen.map(([name, payload]) => [name, payload])).toEqual([
      ['created', { n: 1 }],
      ['created', { n: 2 }],
      ['created', { n: 3 }],
      ['patched', { id: 1, x: true }],
      ['patched', { id: 2, x: true }],
    ]);
  });

  it('emits nothing when the method or a hook fails', async () => {
    const app = createApp();
    app.use('svc', crud({ create: async () => Promise.reject(new Error('store down')) }));
    const service = app.service('svc');
    const seen = record(service, STANDARD);
    service.hooks({ after: { patch: [() => Promise.reject(new Error('after failed'))] } });
    await expect(service.create({})).rejects.toThrow('store down');
    await expect(service.patch(1, {})).rejects.toThrow('after failed');
    expect(seen).toEqual([]);
  });

  it('find, get and custom methods emit nothing', async () => {
    const app = createApp();
    app.use('svc', crud({ custom: async () => ({ ok: true }) }), { methods: ['find', 'get', 'custom'] });
    const service = app.service('svc');
    const seen: unknown[] = [];
    for (const name of [...STANDARD, 'found', 'null', 'custom'])
      service.on(name, (payload: unknown) => seen.push(payload));
    await service.find();
    await service.get(1);
    await service.custom({});
    expect(seen).toEqual([]);
  });

  it('a hook may rename the event', async () => {
    const app = createApp();
    app.use('svc', crud());
    const service = app.service('svc');
    const seen = record(service, ['created', 'imported']);
    service.hooks({ before: { create: [(context: HookContext) => void (context.event = 'imported')] } });
    await service.create({ a: 1 });
    expect(seen.map(([name]) => name)).toEqual(['imported']);
  });

  it('a hook may suppress the event with null', async () => {
    const app = createApp();
    app.use('svc', crud());
    const service = app.service('svc');
    const seen = record(service, STANDARD);
    service.hooks({ after: { remove: [(context: HookContext) => void (context.event = null)] } });
    await service.remove(1);
    expect(seen).toEqual([]);
  });

  it('a hook may give a custom method an event', async () => {
    const app = createApp();
    app.use('other', crud({ ping: async () => ({ pong: true }) }), { methods: ['ping'] });
    const other = app.service('other');
    const seen = record(other, ['pinged']);
    other.hooks({ before: { ping: [(context: HookContext) => void (context.event = 'pinged')] } });
    await other.ping({});
    expect(seen.map(([, payload]) => payload)).toEqual([{ pong: true }]);
  });

  it('events listed in the events option are left to the service', async () => {
    const app = createApp();
    app.use('svc', crud(), { events: ['created', 'audit'] });
    const service = app.service('svc');
    const seen = record(service, ['created', 'patched', 'audit']);
    await service.create({ a: 1 });
    await service.patch(1, {});
    expect(seen.map(([name]) => name)).toEqual(['patched']);
    service.emit('audit', { custom: true });
    expect(seen.map(([name]) => name)).toEqual(['patched', 'audit']);
    expect(app.lookup('svc')?.events).toEqual(['created', 'audit']);
  });

  it('the events option defaults to service.events', () => {
    const app = createApp();
    app.use('svc', { ...crud(), events: ['log'] });
    expect(app.lookup('svc')?.events).toEqual(['log']);
  });

  it('the payload is the result, not the dispatch', async () => {
    const app = createApp();
    app.use('svc', crud());
    const service = app.service('svc');
    const seen = record(service, ['created']);
    service.hooks({ after: { create: [(context: HookContext) => void (context.dispatch = { safe: true })] } });
    await service.create({ secret: 1 });
    expect(seen[0][1]).toEqual({ secret: 1 });
  });

  it('an undefined result emits nothing', async () => {
    const app = createApp();
    app.use('svc', crud({ remove: async () => undefined }));
    const service = app.service('svc');
    const seen = record(service, ['removed']);
    await service.remove(1);
    expect(seen).toEqual([]);
  });
});
