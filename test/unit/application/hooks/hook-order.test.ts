import { createApp, type Application } from '../../../../src/application/app/application';
import type { HookContext } from '../../../../src/application/hooks/hook-context';

type Log = string[];

function around(log: Log, name: string) {
  return async (_context: HookContext, next: () => Promise<void>) => {
    log.push(`${name}:in`);
    try {
      await next();
    } finally {
      log.push(`${name}:out`);
    }
  };
}

function regular(log: Log, name: string) {
  return (context: HookContext) => {
    log.push(`${name}(${context.type})`);
  };
}

/** App and service hooks at every level, for `get`, as in feathers-wire-contract.md 8.2. */
function appWithHooksEverywhere(log: Log, get: (id: unknown) => Promise<unknown>): Application {
  const app = createApp();
  app.use('svc', { get, find: async () => [] });
  const levels = [
    ['app', (map: any) => app.hooks(map)],
    ['svc', (map: any) => app.service('svc').hooks(map)],
  ] as const;
  for (const [level, register] of levels) {
    register({
      around: { all: [around(log, `${level}.around.all`)], get: [around(log, `${level}.around.get`)] },
      before: {
        all: [regular(log, `${level}.before.all1`), regular(log, `${level}.before.all2`)],
        get: [regular(log, `${level}.before.get`)],
      },
      after: {
        get: [regular(log, `${level}.after.get`)],
        all: [regular(log, `${level}.after.all1`), regular(log, `${level}.after.all2`)],
      },
      error: { all: [regular(log, `${level}.error.all`)], get: [regular(log, `${level}.error.get`)] },
    });
  }
  return app;
}

describe('hook execution order', () => {
  it(
    'success: app around/before, service around/before, method, ' + 'after all then method-specific, unwinding',
    async () => {
      const log: Log = [];
      const app = appWithHooksEverywhere(log, async (id) => {
        log.push('METHOD');
        return { id };
      });
      await expect(app.service('svc').get(1)).resolves.toEqual({ id: 1 });
      expect(log).toEqual([
        'app.around.all:in',
        'app.around.get:in',
        'app.before.all1(before)',
        'app.before.all2(before)',
        'app.before.get(before)',
        'svc.around.all:in',
        'svc.around.get:in',
        'svc.before.all1(before)',
        'svc.before.all2(before)',
        'svc.before.get(before)',
        'METHOD',
        'svc.after.all1(after)',
        'svc.after.all2(after)',
        'svc.after.get(after)',
        'svc.around.get:out',
        'svc.around.all:out',
        'app.after.all1(after)',
        'app.after.all2(after)',
        'app.after.get(after)',
        'app.around.get:out',
        'app.around.all:out',
      ]);
    },
  );

  it('error: service error hooks method-specific then all, then the app ones, then the rejection', async () => {
    const log: Log = [];
    const app = appWithHooksEverywhere(log, async () => {
      log.push('METHOD');
      throw new Error('boom');
    });
    await expect(app.service('svc').get(1)).rejects.toThrow('boom');
    expect(log.slice(log.indexOf('METHOD'))).toEqual([
      'METHOD',
      'svc.error.get(error)',
      'svc.error.all(error)',
      'svc.around.get:out',
      'svc.around.all:out',
      'app.error.get(error)',
      'app.error.all(error)',
      'app.around.get:out',
      'app.around.all:out',
    ]);
  });

  it('hooks for other methods do not run', async () => {
    const log: Log = [];
    const app = appWithHooksEverywhere(log, async () => ({}));
    log.length = 0;
    await app.service('svc').find();
    expect(log.some((entry) => entry.includes('.get'))).toBe(false);
    expect(log).toContain('svc.before.all1(before)');
  });

  it('hooks registered later on the same level run after earlier ones', async () => {
    const log: Log = [];
    const app = createApp();
    app.use('svc', { get: async () => ({}) });
    app.service('svc').hooks({ before: { get: [regular(log, 'first')] } });
    app.service('svc').hooks({ before: { get: [regular(log, 'second')] } });
    await app.service('svc').get(1);
    expect(log).toEqual(['first(before)', 'second(before)']);
  });
});

describe('hooks changing the outcome', () => {
  function appWith(get: (id: unknown, params: unknown) => Promise<unknown>): Application {
    const app = createApp();
    app.use('svc', { get });
    return app;
  }

  it('an error hook that sets result recovers, and that result is returned', async () => {
    const app = appWith(async () => {
      throw new Error('boom');
    });
    app.service('svc').hooks({
      error: { get: [(context: HookContext) => void (context.result = { recovered: context.error.message })] },
    });
    await expect(app.service('svc').get(1)).resolves.toEqual({ recovered: 'boom' });
  });

  it('an error hook may replace the error', async () => {
    const app = appWith(async () => {
      throw new Error('boom');
    });
    app
      .service('svc')
      .hooks({ error: { all: [(context: HookContext) => void (context.error = new Error('replaced'))] } });
    await expect(app.service('svc').get(1)).rejects.toThrow('replaced');
  });

  it('a before hook that sets result skips the method', async () => {
    const get = jest.fn(async () => ({ from: 'method' }));
    const app = appWith(get);
    app.service('svc').hooks({ before: { get: [(context: HookContext) => void (context.result = { from: 'hook' })] } });
    await expect(app.service('svc').get(1)).resolves.toEqual({ from: 'hook' });
    expect(get).not.toHaveBeenCalled();
  });

  it('around hooks can change the result after next()', async () => {
    const app = appWith(async (id) => ({ id }));
    app.service('svc').hooks({
      around: {
        get: [
          async (context: HookContext, next: () => Promise<void>) => {
            await next();
            context.result = { ...context.result, wrapped: true };
          },
        ],
      },
    });
    await expect(app.service('svc').get(5)).resolves.toEqual({ id: 5, wrapped: true });
  });

  it('before hooks can change id and params the method receives', async () => {
    const app = appWith(async (id, params) => ({ id, params }));
    app.service('svc').hooks({
      before: {
        get: [
          (context: HookContext) => {
            context.id = 'changed';
            context.params = { ...context.params, added: true };
          },
        ],
      },
    });
    await expect(app.service('svc').get(1, { query: {} })).resolves.toEqual({
      id: 'changed',
      params: { query: {}, added: true },
    });
  });

  it('a hook returning a partial context gets it merged', async () => {
    const app = appWith(async () => ({ from: 'method' }));
    app.service('svc').hooks({ after: { get: [() => ({ result: { merged: true } }) as any] } });
    await expect(app.service('svc').get(1)).resolves.toEqual({ merged: true });
  });

  it(
    'synchronous and asynchronous regular hooks mixed run in order, each waiting for ' +
      'the one before; a synchronous throw reaches the error hooks',
    async () => {
      const log: Log = [];
      const app = appWith(async () => ({ from: 'method' }));
      const later = (name: string) => async (context: HookContext) => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        log.push(`${name}(${context.type})`);
      };
      app.service('svc').hooks({
        before: {
          get: [
            regular(log, 'sync1'),
            later('async1'),
            regular(log, 'sync2'),
            () => Promise.resolve({ params: { merged: true } }) as any,
            regular(log, 'sync3'),
          ],
        },
        after: { get: [later('async2'), regular(log, 'sync4')] },
      });
      await expect(app.service('svc').get(1)).resolves.toEqual({ from: 'method' });
      expect(log).toEqual([
        'sync1(before)',
        'async1(before)',
        'sync2(before)',
        'sync3(before)',
        'async2(after)',
        'sync4(after)',
      ]);

      const failing = appWith(async () => ({ from: 'method' }));
      failing.service('svc').hooks({
        before: {
          get: [
            () => {
              throw new Error('refused');
            },
          ],
        },
        error: {
          get: [
            (context: HookContext) => {
              context.result = { recovered: (context.error as Error).message };
            },
          ],
        },
      });
      await expect(failing.service('svc').get(1)).resolves.toEqual({ recovered: 'refused' });
    },
  );

  it('the method-name form registers around hooks', async () => {
    const app = appWith(async () => ({ n: 1 }));
    app.service('svc').hooks({
      get: [
        async (context: HookContext, next: () => Promise<void>) => {
          await next();
          context.result.n += 1;
        },
      ],
    });
    await expect(app.service('svc').get(1)).resolves.toEqual({ n: 2 });
  });

  it('calling next twice in an around hook is an error', async () => {
    const app = appWith(async () => ({}));
    app.service('svc').hooks({
      around: {
        all: [
          async (_context: HookContext, next: () => Promise<void>) => {
            await next();
            await next();
          },
        ],
      },
    });
    await expect(app.service('svc').get(1)).rejects.toThrow('next() called more than once');
  });

  it('context carries app, service, path, method, id and params; http only for transport calls', async () => {
    const seen: HookContext[] = [];
    const app = appWith(async () => ({}));
    app.service('svc').hooks({ before: { all: [(context: HookContext) => void seen.push({ ...context })] } });
    await app.service('svc').get(3);
    await app.service('svc').get(4, { provider: 'rest' });
    expect(seen[0]).toMatchObject({
      app,
      service: app.service('svc'),
      path: 'svc',
      method: 'get',
      id: 3,
      params: {},
      event: null,
    });
    expect(seen[0].http).toBeUndefined();
    expect(seen[1].http).toEqual({});
  });

  it('refuses unknown hook types and non-function hooks', () => {
    const app = appWith(async () => ({}));
    expect(() => app.service('svc').hooks({ sometimes: [async () => undefined] } as any)).toThrow(
      "'sometimes' is not a valid hook type or method",
    );
    expect(() => app.service('svc').hooks({ before: { get: ['nope'] } } as any)).toThrow('must be a function');
  });
});
