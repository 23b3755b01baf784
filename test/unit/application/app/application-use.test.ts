import { createApp } from '../../../../src/application/app/application';
import { DECLARE_METHODS } from '../../../../src/application/app/registered-service';
import type { HookContext } from '../../../../src/application/hooks/hook-context';

function crud() {
  return {
    find: async () => [],
    get: async (id: unknown) => ({ id }),
    create: async (data: unknown) => data,
    update: async (id: unknown, data: object) => ({ id, ...data }),
    patch: async (id: unknown, data: object) => ({ id, ...data }),
    remove: async (id: unknown) => ({ id }),
  };
}

describe('app.use', () => {
  it('registers a hooked wrapper at the normalized path', async () => {
    const app = createApp();
    const original = crud();
    app.use('/people/', original);
    const service = app.service('people');
    expect(service).not.toBe(original);
    expect(app.service('/people')).toBe(service);
    await expect(service.get(1)).resolves.toEqual({ id: 1 });
    expect(app.lookup('people')?.original).toBe(original);
    expect(app.entries().map((entry) => entry.path)).toEqual(['people']);
  });

  it('by default lets transports call the standard methods the service has', () => {
    const app = createApp();
    app.use('partial', { find: async () => [], get: async () => ({}), helper: async () => 'x' });
    expect(app.lookup('partial')?.methods).toEqual(['find', 'get']);
  });

  it('an unlisted custom method is neither transport-callable nor hooked', async () => {
    const app = createApp();
    const hook = jest.fn();
    app.use('svc', { ...crud(), helper: async (data: unknown) => ({ data }) });
    app.service('svc').hooks({ before: { all: [hook] } });
    expect(app.lookup('svc')?.methods).not.toContain('helper');
    await app.service('svc').helper('x');
    expect(hook).not.toHaveBeenCalled();
    await expect(app.execute('svc', 'helper', { data: 'x', params: {} })).rejects.toMatchObject({ name: 'NotFound' });
  });

  it('a listed custom method is hooked and called with (data, params)', async () => {
    const app = createApp();
    app.use(
      'svc',
      { ...crud(), shout: async (data: string, params: unknown) => ({ loud: data.toUpperCase(), params }) },
      { methods: ['find', 'shout'] },
    );
    const seen: HookContext[] = [];
    app.service('svc').hooks({ before: { shout: [(context: HookContext) => void seen.push(context)] } });
    await expect(app.service('svc').shout('hi', { query: {} })).resolves.toEqual({ loud: 'HI', params: { query: {} } });
    expect(seen[0]).toMatchObject({ method: 'shout', data: 'hi', event: null });
    expect(app.lookup('svc')?.methods).toEqual(['find', 'shout']);
    expect(app.lookup('svc')?.hookedMethods).toEqual(expect.arrayContaining(['get', 'create', 'shout']));
  });

  it.each(['setup', 'teardown', 'hooks', 'on', 'emit', 'toString', 'hasOwnProperty', 'before', 'all', 'publish'])(
    'refuses the reserved name %s as a custom method with a clear error',
    (name) => {
      const app = createApp();
      const service = { ...crud(), [name]: async () => undefined };
      expect(() => app.use('svc', service, { methods: [name] })).toThrow(
        `'${name}' on service 'svc' is not allowed as a custom method name`,
      );
    },
  );

  it('refuses a listed method that is not a function', () => {
    const app = createApp();
    expect(() => app.use('svc', { ...crud(), notFn: 'x' }, { methods: ['notFn'] })).toThrow(
      "Can not apply hooks. 'notFn' is not a function",
    );
    expect(() => app.use('svc', { find: async () => [] }, { methods: ['get'] })).toThrow(
      "Can not apply hooks. 'get' is not a function",
    );
  });

  it('refuses invalid service objects', () => {
    const app = createApp();
    expect(() => app.use('svc', {})).toThrow('Invalid service object passed for path `svc`');
    expect(() => app.use('svc', null as never)).toThrow('Invalid service object passed for path `svc`');
    expect(() => app.use('svc', 'service' as never)).toThrow('Invalid service object passed for path `svc`');
    expect(() => app.use('svc', { find: 'x' })).toThrow('Invalid service object passed for path `svc`');
  });

  it('accepts a service with only setup or teardown', () => {
    const app = createApp();
    expect(() => app.use('lifecycle', { setup: async () => undefined })).not.toThrow();
  });

  it('gives every service emitter methods, keeping its own', () => {
    const app = createApp();
    app.use('plain', crud());
    expect(typeof app.service('plain').on).toBe('function');
    expect(typeof app.service('plain').emit).toBe('function');
    const own = { ...crud(), on: jest.fn(), emit: jest.fn() };
    app.use('own', own);
    app.service('own').on('x', () => undefined);
    expect(own.on).toHaveBeenCalled();
  });

  it('bumps version on use and unuse', async () => {
    const app = createApp();
    const before = app.version;
    app.use('a', crud());
    await app.unuse('a');
    expect(app.version).toBe(before + 2);
  });
});

describe('unknown paths', () => {
  it('app.service, app.execute and app.unuse of an unknown path are NotFound', async () => {
    const app = createApp();
    expect(() => app.service('nope')).toThrow("Can not find service 'nope'");
    try {
      app.service('nope');
    } catch (error: any) {
      expect({ name: error.name, code: error.code }).toEqual({ name: 'NotFound', code: 404 });
    }
    await expect(app.execute('nope', 'find', { params: {} })).rejects.toMatchObject({ name: 'NotFound' });
    await expect(app.unuse('nope')).rejects.toMatchObject({ name: 'NotFound' });
    expect(app.lookup('nope')).toBeUndefined();
  });

  it('a default service factory creates a service for an unknown path', async () => {
    const app = createApp();
    app.defaultService = () => crud();
    await expect(app.service('remote').get(2)).resolves.toEqual({ id: 2 });
    expect(app.lookup('remote')).toBeDefined();
  });

  it(
    'a service the default factory creates gets the methods ' +
      'serviceMethods names for its path, custom ones included',
    async () => {
      // As the REST and socket clients do: custom methods are made when `use` lists them.
      const remote = () => {
        const service: Record<string | symbol, unknown> = crud();
        service[DECLARE_METHODS] = (names: string[]) =>
          names.forEach((name) => (service[name] = async (data: unknown) => ({ called: name, data })));
        return service;
      };
      const app = createApp({ serviceMethods: { messages: ['find', 'markRead'] } });
      app.defaultService = remote;
      await expect(app.service('messages').markRead({ id: 1 })).resolves.toEqual({
        called: 'markRead',
        data: { id: 1 },
      });
      expect(app.lookup('messages')!.methods).toEqual(['find', 'markRead']);
      expect(app.lookup('messages')!.hookedMethods).toContain('markRead');
      // Other paths, and apps without the option, get the standard methods only.
      expect(app.service('users').markRead).toBeUndefined();
      const plain = createApp();
      plain.defaultService = remote;
      expect(plain.service('messages').markRead).toBeUndefined();
    },
  );
});

describe('setup, teardown and unuse', () => {
  function lifecycleService(log: string[], name: string) {
    return {
      ...crud(),
      setup: async (app: unknown, path: string) => void log.push(`setup ${name} ${path} ${app ? 'app' : ''}`),
      teardown: async (_app: unknown, path: string) => void log.push(`teardown ${name} ${path}`),
    };
  }

  it('setup and teardown call each service in registration order with (app, path)', async () => {
    const log: string[] = [];
    const app = createApp();
    app.use('a', lifecycleService(log, 'A'));
    app.use('b', lifecycleService(log, 'B'));
    await app.setup();
    await app.teardown();
    expect(log).toEqual(['setup A a app', 'setup B b app', 'teardown A a', 'teardown B b']);
  });

  it('a service added after setup is set up right away', async () => {
    const log: string[] = [];
    const app = createApp();
    await app.setup();
    app.use('late', lifecycleService(log, 'L'));
    await Promise.resolve();
    expect(log).toEqual(['setup L late app']);
  });

  it('calls to a service added after setup wait for its setup to finish', async () => {
    const app = createApp();
    await app.setup();
    let ready = false;
    let finish: () => void = () => undefined;
    app.use('late', {
      ...crud(),
      setup: () =>
        new Promise<void>(
          (resolve) =>
            (finish = () => {
              ready = true;
              resolve();
            }),
        ),
      find: async () => ready,
    });
    const call = app.service('late').find();
    await new Promise((resolve) => setImmediate(resolve));
    finish();
    await expect(call).resolves.toBe(true);
    await expect(app.service('late').find()).resolves.toBe(true);
  });

  it(
    'a failed late setup rejects the calls, is never an unhandled ' + 'rejection, and app.setup() tries it again',
    async () => {
      const unhandled: unknown[] = [];
      const onUnhandled = (reason: unknown) => void unhandled.push(reason);
      process.on('unhandledRejection', onUnhandled);
      try {
        const app = createApp();
        await app.setup();
        let attempts = 0;
        app.use('late', {
          ...crud(),
          setup: async () => {
            attempts++;
            if (attempts === 1) throw new Error('no connection');
          },
        });
        await expect(app.service('late').get(1)).rejects.toThrow('no connection');
        await expect(app.service('late').get(1)).rejects.toThrow('no connection');
        await app.setup();
        expect(attempts).toBe(2);
        await expect(app.service('late').get(1)).resolves.toEqual({ id: 1 });
        await new Promise((resolve) => setImmediate(resolve));
        expect(unhandled).toEqual([]);
      } finally {
        process.off('unhandledRejection', onUnhandled);
      }
    },
  );

  it('teardown and unuse wait for a late setup still running', async () => {
    const log: string[] = [];
    const app = createApp();
    await app.setup();
    app.use('late', {
      ...crud(),
      setup: async () => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        log.push('setup');
      },
      teardown: async () => void log.push('teardown'),
    });
    await app.unuse('late');
    expect(log).toEqual(['setup', 'teardown']);
  });

  it('unuse calls teardown, removes the service and returns the original', async () => {
    const log: string[] = [];
    const app = createApp();
    const original = lifecycleService(log, 'A');
    app.use('a', original);
    await expect(app.unuse('/a/')).resolves.toBe(original);
    expect(log).toEqual(['teardown A a']);
    expect(() => app.service('a')).toThrow("Can not find service 'a'");
  });

  it('app setup and teardown hooks run around the services', async () => {
    const log: string[] = [];
    const app = createApp();
    app.use('a', lifecycleService(log, 'A'));
    app.hooks({
      setup: [
        async (_app, next) => {
          log.push('setup hook in');
          await next();
          log.push('setup hook out');
        },
      ],
      teardown: async (_app, next) => {
        log.push('teardown hook');
        await next();
      },
    });
    await app.setup();
    await app.teardown();
    expect(log).toEqual(['setup hook in', 'setup A a app', 'setup hook out', 'teardown hook', 'teardown A a']);
  });

  it('configure runs a function with the app', () => {
    const app = createApp();
    app.configure((configured) => configured.set('answer', 42));
    expect(app.get('answer')).toBe(42);
  });
});
