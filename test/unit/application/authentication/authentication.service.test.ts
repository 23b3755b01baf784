import { AuthenticationService } from '../../../../src/application/authentication/authentication.service';
import { GeneralError, NotAuthenticated } from '../../../../src/domain/errors';
import type {
  AuthenticationRequest,
  AuthenticationStrategyPort,
} from '../../../../src/ports/authentication-strategy.port';
import type { TokenIssuerPort } from '../../../../src/ports/token-issuer.port';

/** Accepts `{ email: 'ann', password: 'pw' }`; records what it was called with. */
function givenLocalStrategy(calls: AuthenticationRequest[] = []): AuthenticationStrategyPort {
  return {
    name: 'local',
    async authenticate(data) {
      calls.push(data);
      if (data.email === 'ann' && data.password === 'pw')
        return { authentication: { strategy: 'local' }, user: { id: 7, email: 'ann', password: '$hash' } };
      throw new NotAuthenticated('Invalid login');
    },
  };
}

const jwtStrategy: AuthenticationStrategyPort = {
  name: 'jwt',
  async authenticate(data) {
    if (data.accessToken !== 'token-7') throw new NotAuthenticated('invalid signature');
    return {
      accessToken: 'token-7',
      authentication: { strategy: 'jwt', accessToken: 'token-7', payload: { sub: '7', iat: 1, exp: 2 } },
      user: { id: 7, password: '$hash' },
    };
  },
};

const fakeIssuer: TokenIssuerPort = {
  sign: async (subject) => `token-${subject}`,
  verify: async (token) => ({ sub: token.replace('token-', ''), iat: 100, exp: 200 }),
};

const givenService = (options: Partial<ConstructorParameters<typeof AuthenticationService>[0]> = {}) =>
  new AuthenticationService({
    strategies: [givenLocalStrategy(), jwtStrategy],
    tokenIssuer: fakeIssuer,
    hiddenFields: ['password'],
    rateLimit: false,
    ...options,
  });

describe('AuthenticationService', () => {
  it('creates a token for a local login and returns the user without hidden fields', async () => {
    const result = await givenService().create({ strategy: 'local', email: 'ann', password: 'pw' });
    expect(result).toEqual({
      accessToken: 'token-7',
      authentication: { strategy: 'local', payload: { sub: '7', iat: 100, exp: 200 } },
      user: { id: 7, email: 'ann' },
    });
  });

  it('returns a jwt result as is: no new token', async () => {
    const result = await givenService().create({ strategy: 'jwt', accessToken: 'token-7' });
    expect(result.accessToken).toBe('token-7');
    expect(result.user).toEqual({ id: 7 });
  });

  it.each([
    [undefined, 'Invalid authentication information (no `strategy` set)'],
    [[{ strategy: 'local' }], 'Invalid authentication information (no `strategy` set)'],
    [{ strategy: 42 }, 'Invalid authentication information (no `strategy` set)'],
    [{ strategy: 'oauth' }, 'Invalid authentication information (strategy not allowed in authStrategies)'],
  ])('refuses %j with 401 %s', async (data, message) => {
    await expect(givenService().create(data)).rejects.toMatchObject({ name: 'NotAuthenticated', message });
  });

  it('refuses a registered strategy that authStrategies does not allow for create', async () => {
    const service = givenService({ authStrategies: ['local'] });
    await expect(service.create({ strategy: 'jwt', accessToken: 'token-7' })).rejects.toMatchObject({
      message: 'Invalid authentication information (strategy not allowed in authStrategies)',
    });
    // The hook may still use it.
    await expect(service.authenticate({ strategy: 'jwt', accessToken: 'token-7' }, {}, 'jwt')).resolves.toMatchObject({
      user: { id: 7 },
    });
  });

  it('says which strategy is missing when an allowed one is not registered', async () => {
    const service = givenService({ authStrategies: ['local', 'api-key'] });
    await expect(service.create({ strategy: 'api-key' })).rejects.toMatchObject({
      message: 'Invalid authentication information',
    });
  });

  it('refuses a user without an id (no subject)', async () => {
    const strategy: AuthenticationStrategyPort = {
      name: 'local',
      authenticate: async () => ({ authentication: { strategy: 'local' }, user: { email: 'x' } }),
    };
    await expect(givenService({ strategies: [strategy] }).create({ strategy: 'local' })).rejects.toMatchObject({
      message: 'Can not set subject from user.id',
    });
  });

  it('uses _id or the configured entityId as subject', async () => {
    const strategy: AuthenticationStrategyPort = {
      name: 'local',
      authenticate: async () => ({ authentication: { strategy: 'local' }, user: { _id: 'abc', uid: 'u-1' } }),
    };
    await expect(givenService({ strategies: [strategy] }).create({ strategy: 'local' })).resolves.toMatchObject({
      accessToken: 'token-abc',
    });
    await expect(
      givenService({ strategies: [strategy], entityId: 'uid' }).create({ strategy: 'local' }),
    ).resolves.toMatchObject({ accessToken: 'token-u-1' });
  });

  it('hands strategies params without provider, query or the caller authentication', async () => {
    let seen: Record<string, unknown> = {};
    const strategy: AuthenticationStrategyPort = {
      name: 'local',
      authenticate: async (_data, params) => {
        seen = params;
        return { authentication: { strategy: 'local' }, user: { id: 1 } };
      },
    };
    await givenService({ strategies: [strategy] }).create(
      { strategy: 'local' },
      { provider: 'rest', query: { a: 1 }, ip: '10.0.0.1', authentication: { strategy: 'jwt' } },
    );
    expect(seen).toEqual({ ip: '10.0.0.1' });
  });

  describe('remove (logout)', () => {
    it('re-checks the bearer token and returns the jwt result', async () => {
      const result = await givenService().remove(null, { authentication: { strategy: 'jwt', accessToken: 'token-7' } });
      expect(result).toMatchObject({ accessToken: 'token-7', user: { id: 7 } });
      await expect(
        givenService().remove('token-7', { authentication: { strategy: 'jwt', accessToken: 'token-7' } }),
      ).resolves.toMatchObject({ accessToken: 'token-7' });
    });

    it('refuses a missing token, another token as id, and a local login', async () => {
      await expect(givenService().remove(null, {})).rejects.toMatchObject({
        code: 401,
        message: 'Invalid authentication information (no `strategy` set)',
      });
      await expect(givenService().remove('x', {})).rejects.toMatchObject({ code: 401 });
      await expect(
        givenService().remove('other', { authentication: { strategy: 'jwt', accessToken: 'token-7' } }),
      ).rejects.toMatchObject({ message: 'Invalid access token' });
      await expect(
        givenService().remove(null, {
          authentication: { strategy: 'local', accessToken: 'token-7', email: 'ann', password: 'pw' },
        }),
      ).rejects.toMatchObject({ code: 401 });
    });
  });

  describe('rate limiting', () => {
    it('answers 429 with data.retryAfter after too many failures, before any lookup', async () => {
      let time = 1_000_000;
      const calls: AuthenticationRequest[] = [];
      const service = givenService({
        strategies: [givenLocalStrategy(calls)],
        rateLimit: { maxFailuresPerEmail: 2, windowMs: 30_000 },
        now: () => time,
      });
      for (let attempt = 0; attempt < 3; attempt++) {
        await expect(service.create({ strategy: 'local', email: 'Ann', password: 'x' })).rejects.toMatchObject({
          code: 401,
        });
        time += 1_000;
      }
      // Two failures are allowed; the third one set a delay of 2 s, of which 1 s is left.
      await expect(service.create({ strategy: 'local', email: 'ann', password: 'pw' })).rejects.toMatchObject({
        name: 'TooManyRequests',
        code: 429,
        data: { retryAfter: 1 },
      });
      expect(calls).toHaveLength(3);
      time += 1_000;
      await expect(service.create({ strategy: 'local', email: 'ann', password: 'pw' })).resolves.toMatchObject({
        accessToken: 'token-7',
      });
    });

    it(
      'counts each attempt before its check: concurrent attempts ' + 'reach the strategy at most the allowance',
      async () => {
        const calls: AuthenticationRequest[] = [];
        const local = givenLocalStrategy(calls);
        const slow: AuthenticationStrategyPort = {
          name: 'local',
          authenticate: (data, params) =>
            new Promise((resolve) => setTimeout(resolve, 20)).then(() => local.authenticate(data, params)),
        };
        const service = givenService({ strategies: [slow], rateLimit: { maxFailuresPerEmail: 3 } });
        const outcomes = await Promise.all(
          Array.from({ length: 20 }, (_, index) =>
            service
              .create({ strategy: 'local', email: 'ann', password: index === 19 ? 'pw' : 'wrong' }, { ip: '10.0.0.1' })
              .then(
                () => 201,
                (error: { code: number }) => error.code,
              ),
          ),
        );
        expect(calls).toHaveLength(3);
        expect(outcomes.filter((code) => code === 429)).toHaveLength(17);
        expect(outcomes[19]).toBe(429);
      },
    );

    it('does not limit token logins (no password is checked; a burst of reconnecting sockets must pass)', async () => {
      const service = givenService({ rateLimit: { maxFailuresPerClient: 1, maxFailuresPerEmail: 1 } });
      for (let attempt = 0; attempt < 3; attempt++)
        await expect(
          service.create({ strategy: 'jwt', accessToken: 'forged' }, { ip: '10.0.0.2' }),
        ).rejects.toMatchObject({ code: 401 });
      const logins = await Promise.all(
        Array.from({ length: 10 }, () =>
          service.create({ strategy: 'jwt', accessToken: 'token-7' }, { ip: '10.0.0.2' }),
        ),
      );
      expect(logins).toHaveLength(10);
    });

    it('does not count errors other than NotAuthenticated (e.g. a failing users service)', async () => {
      const failing: AuthenticationStrategyPort = {
        name: 'local',
        authenticate: async () => {
          throw new GeneralError('down');
        },
      };
      const service = givenService({ strategies: [failing], rateLimit: { maxFailuresPerEmail: 1 } });
      for (let attempt = 0; attempt < 3; attempt++)
        await expect(service.create({ strategy: 'local', email: 'ann' })).rejects.toMatchObject({ code: 500 });
    });
  });
});
