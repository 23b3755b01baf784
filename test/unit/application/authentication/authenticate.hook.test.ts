import { createApp } from '../../../../src/application/app/application';
import { authenticate } from '../../../../src/application/authentication/authenticate.hook';
import { NotAuthenticated } from '../../../../src/domain/errors';
import { MemoryService } from '../../../../src/adapters/memory';
import type { Params } from '../../../../src/ports/service-params';

/** An authentication service stand-in: 'good' is ann's token. */
function givenApp(options: { withAuthentication?: boolean } = {}) {
  const app = createApp();
  const seen: Params[] = [];
  app.use('notes', new MemoryService());
  app.service('notes').hooks({
    around: { all: [authenticate('jwt')] },
    before: {
      all: [
        (context: { params: Params }) => {
          seen.push(context.params);
        },
      ],
    },
  });
  const calls: unknown[][] = [];
  if (options.withAuthentication !== false) {
    app.use('authentication', {
      async create() {
        return {};
      },
      async authenticate(data: any, params: Params, ...strategies: string[]) {
        calls.push([data, params, strategies]);
        if (!strategies.includes(data.strategy))
          throw new NotAuthenticated('Invalid authentication information (strategy not allowed in authStrategies)');
        if (data.accessToken !== 'good') throw new NotAuthenticated('invalid signature');
        return {
          accessToken: 'good',
          authentication: { strategy: 'jwt', accessToken: 'good', payload: { sub: '1' } },
          user: { id: 1, email: 'ann' },
        };
      },
    });
  }
  return { app, seen, calls };
}

describe('authenticate hook', () => {
  it('refuses an external call without credentials with 401 Not authenticated', async () => {
    const { app } = givenApp();
    await expect(app.service('notes').find({ provider: 'rest' })).rejects.toMatchObject({
      name: 'NotAuthenticated',
      message: 'Not authenticated',
    });
  });

  it('lets an internal call without credentials through, unauthenticated', async () => {
    const { app, seen } = givenApp();
    await expect(app.service('notes').find()).resolves.toEqual([]);
    expect(seen[0].user).toBeUndefined();
  });

  it('sets user, authentication and authenticated after success, hiding the provider from the strategy', async () => {
    const { app, seen, calls } = givenApp();
    await app.service('notes').find({ provider: 'rest', authentication: { strategy: 'jwt', accessToken: 'good' } });
    expect(seen[0]).toMatchObject({
      provider: 'rest',
      authenticated: true,
      user: { id: 1, email: 'ann' },
      authentication: { strategy: 'jwt', accessToken: 'good', payload: { sub: '1' } },
    });
    expect(calls[0][2]).toEqual(['jwt']);
  });

  it('passes the token problem on, also for internal calls that bring credentials', async () => {
    const { app } = givenApp();
    await expect(
      app.service('notes').find({ authentication: { strategy: 'jwt', accessToken: 'bad' } }),
    ).rejects.toMatchObject({ message: 'invalid signature' });
    await expect(
      app
        .service('notes')
        .find({ provider: 'rest', authentication: { strategy: 'local', email: 'a', password: 'b' } as any }),
    ).rejects.toMatchObject({
      message: 'Invalid authentication information (strategy not allowed in authStrategies)',
    });
  });

  it('skips calls already authenticated', async () => {
    const { app, calls } = givenApp();
    await app.service('notes').find({ provider: 'rest', authenticated: true, user: { id: 2 } });
    expect(calls).toHaveLength(0);
  });

  it('answers 401 when there is no authentication service', async () => {
    const { app } = givenApp({ withAuthentication: false });
    await expect(
      app.service('notes').find({ provider: 'rest', authentication: { strategy: 'jwt', accessToken: 'good' } }),
    ).rejects.toMatchObject({
      message: 'Could not find a valid authentication service',
    });
  });

  it('works as a before hook and refuses to run after the method', async () => {
    const app = createApp();
    app.use('notes', new MemoryService());
    app.service('notes').hooks({ before: { find: [authenticate('jwt')] }, after: { get: [authenticate('jwt')] } });
    await expect(app.service('notes').find({ provider: 'rest' })).rejects.toMatchObject({
      message: 'Not authenticated',
    });
    await app.service('notes').create({ text: 'x' });
    await expect(app.service('notes').get(0)).rejects.toMatchObject({
      message: 'The authenticate hook must be used as a before hook',
    });
  });

  it('needs a strategy and is not for the authentication service itself', async () => {
    expect(() => authenticate()).toThrow('at least one');
    const { app } = givenApp();
    app.service('authentication').hooks({ around: { create: [authenticate({ strategies: ['jwt'] })] } });
    await expect(app.service('authentication').create({}, { provider: 'rest' })).rejects.toMatchObject({
      message: 'The authenticate hook does not need to be used on the authentication service',
    });
  });
});
