import { MemoryService } from '../../../../src/adapters/memory';
import { observeStoreCalls } from '../../../../src/application/adapter/observe-store-calls';
import { NotFound, Unavailable } from '../../../../src/domain/errors';
import type { MetricsPort } from '../../../../src/ports/metrics.port';
import {
  TRACE_PARENT,
  type SpanAttributes,
  type TraceParent,
  type TracerPort,
} from '../../../../src/ports/tracer.port';

function recordingMetrics(): MetricsPort & { storeErrors: string[] } {
  const storeErrors: string[] = [];
  const ignore = () => undefined;
  return {
    storeErrors,
    storeError: (collection, operation) => storeErrors.push(`${collection} ${operation}`),
    httpRequest: ignore,
    serviceCall: ignore,
    socketConnections: ignore,
    busEvent: ignore,
    remoteBindingError: ignore,
  };
}

describe('observeStoreCalls', () => {
  it('counts the store’s own failures, not its 4xx answers', async () => {
    const store = new MemoryService();
    const metrics = recordingMetrics();
    let failure: unknown = new Unavailable('The database is unreachable');
    store._find = () => Promise.reject(failure);
    observeStoreCalls(store, { metrics }, { system: 'memory', collection: 'notes' });
    await expect(store.find()).rejects.toBeInstanceOf(Unavailable);
    failure = new TypeError('unexpected');
    await expect(store.find()).rejects.toBeInstanceOf(TypeError);
    await expect(store.get('missing')).rejects.toBeInstanceOf(NotFound);
    await expect(store.create({ text: 'kept' })).resolves.toMatchObject({ text: 'kept' });
    expect(metrics.storeErrors).toEqual(['notes find', 'notes find']);
  });

  it(
    'runs each store call in a database span named after the operation and ' +
      'the collection, a child of the span its params carry',
    async () => {
      const store = new MemoryService();
      const spans: Array<{ name: string; role: string; attributes?: SpanAttributes; parent?: TraceParent }> = [];
      const tracer: TracerPort = {
        inSpan: (name, start, parent, work) => {
          spans.push({ name, role: start.role, attributes: start.attributes?.(), parent });
          return work({ recording: true, setAttributes: () => undefined, recordError: () => undefined }, parent!);
        },
        inject: () => undefined,
        logFields: () => ({}),
      };
      observeStoreCalls(store, { tracer }, { system: 'mongodb', collection: 'notes' });
      const call = {} as TraceParent;
      const created = (await store.create({ text: 'a' }, { [TRACE_PARENT]: call })) as { id: string };
      await store.patch(created.id, { text: 'b' });
      expect(spans.map(({ name }) => name)).toEqual(['create notes', 'patch notes']);
      expect(spans[0]).toEqual({
        name: 'create notes',
        role: 'client',
        attributes: { 'db.system.name': 'mongodb', 'db.collection.name': 'notes', 'db.operation.name': 'create' },
        parent: call,
      });
      // A call without one starts a trace.
      expect(spans[1].parent).toBeUndefined();
    },
  );

  it('leaves the store untouched with neither', () => {
    const store = new MemoryService();
    const find = store._find;
    observeStoreCalls(store, {}, { system: 'memory', collection: 'notes' });
    expect(store._find).toBe(find);
  });
});
