import { HookRegistry } from '../../../../src/application/hooks/hook-registry';
import { argumentNames, argumentsOfCall, callFromArguments } from '../../../../src/application/app/service-call';
import { createContext } from '../../../../src/application/hooks/hook-context';

const hook = (name: string) => Object.assign(() => undefined, { label: name });
const labels = (hooks: unknown[]) => hooks.map((fn) => (fn as { label: string }).label);

describe('HookRegistry', () => {
  it('collects all-hooks before method hooks, in registration order', () => {
    const registry = new HookRegistry();
    registry.register({ before: { get: [hook('get1')], all: hook('all1') } });
    registry.register({ before: { all: [hook('all2')], get: hook('get2') } });
    expect(labels(registry.collect('before', 'get'))).toEqual(['all1', 'all2', 'get1', 'get2']);
    expect(labels(registry.collect('before', 'find'))).toEqual(['all1', 'all2']);
  });

  it('collects error hooks method-specific first, then all', () => {
    const registry = new HookRegistry();
    registry.register({ error: { all: [hook('all')], get: [hook('get')] } });
    expect(labels(registry.collectErrorHooks('get'))).toEqual(['get', 'all']);
  });

  it('a bare function, an array or a type-level function counts as all', () => {
    const registry = new HookRegistry();
    registry.register(hook('bare') as never);
    registry.register([hook('array')] as never);
    registry.register({ after: hook('after-all') } as never);
    expect(labels(registry.collect('around', 'x'))).toEqual(['bare', 'array']);
    expect(labels(registry.collect('after', 'x'))).toEqual(['after-all']);
  });

  it('method keys are around hooks, limited to known methods when given', () => {
    const registry = new HookRegistry(() => ['get']);
    registry.register({ get: [hook('around-get')] } as never);
    expect(labels(registry.collect('around', 'get'))).toEqual(['around-get']);
    expect(() => registry.register({ find: [hook('x')] } as never)).toThrow(
      "'find' is not a valid hook type or method",
    );
  });

  it('isEmpty until something is registered', () => {
    const registry = new HookRegistry();
    expect(registry.isEmpty()).toBe(true);
    registry.register({ before: { all: [hook('x')] } });
    expect(registry.isEmpty()).toBe(false);
  });
});

describe('hook context', () => {
  it('maps each method to its argument names', () => {
    expect(argumentNames('find')).toEqual(['params']);
    expect(argumentNames('get')).toEqual(['id', 'params']);
    expect(argumentNames('remove')).toEqual(['id', 'params']);
    expect(argumentNames('update')).toEqual(['id', 'data', 'params']);
    expect(argumentNames('patch')).toEqual(['id', 'data', 'params']);
    expect(argumentNames('create')).toEqual(['data', 'params']);
    expect(argumentNames('custom')).toEqual(['data', 'params']);
  });

  it('creates a context with default params, the default event and http only for providers', () => {
    const context = createContext('app', 'service', 'svc', 'patch', callFromArguments('patch', [1, { a: 1 }]));
    expect(context).toMatchObject({ id: 1, data: { a: 1 }, params: {}, event: 'patched', type: 'around', path: 'svc' });
    expect(context.http).toBeUndefined();
    expect(
      createContext('app', 'service', 'svc', 'find', callFromArguments('find', [{ provider: 'rest' }])).http,
    ).toEqual({});
    expect(createContext('app', 'service', 'svc', 'get', callFromArguments('get', [1])).event).toBeNull();
  });

  it('rebuilds the arguments from a changed context', () => {
    const context = createContext(
      'app',
      'service',
      'svc',
      'update',
      callFromArguments('update', [1, { a: 1 }, { query: {} }]),
    );
    context.id = 2;
    context.data = { b: 2 };
    expect(argumentsOfCall('update', context)).toEqual([2, { b: 2 }, { query: {} }]);
    expect(context.arguments).toEqual([2, { b: 2 }, { query: {} }]);
    expect(callFromArguments('custom', ['x'])).toEqual({ data: 'x', params: {} });
  });
});
