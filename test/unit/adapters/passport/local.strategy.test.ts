import { MemoryService } from '../../../../src/adapters/memory';
import { LocalAuthenticationStrategy } from '../../../../src/adapters/passport/local.strategy';
import { REPLACED_HASH_PARAM } from '../../../../src/application/authentication/hash-password.hook';
import { Unavailable } from '../../../../src/domain/errors';
import type { Params } from '../../../../src/ports/service-params';
import type { PasswordHasherPort } from '../../../../src/ports/password-hasher.port';
import { TRACE_PARENT, type TraceParent } from '../../../../src/ports/tracer.port';

/** A transparent hasher: hash(x) = 'h:' + x; 'old:' + x is a legacy hash it verifies and wants replaced. */
function givenHasher() {
  const compares: [string, string][] = [];
  const hasher: PasswordHasherPort = {
    hash: async (password) => `h:${password}`,
    compare: async (password, hash) => {
      compares.push([password, hash]);
      return hash === `h:${password}` || hash === `old:${password}`;
    },
    needsRehash: (hash) => !hash.startsWith('h:'),
  };
  return { hasher, compares };
}

async function givenStrategy(
  records: Record<string, any>[] = [{ email: 'ann@example.com', password: 'h:pw', name: 'Ann' }],
) {
  const users = new MemoryService({ paginate: { default: 10, max: 50 } });
  for (const record of records) await users.create(record);
  const finds: Params[] = [];
  const patches: [unknown, Record<string, unknown>, Params | undefined][] = [];
  const spy = {
    find: (params?: Params) => {
      finds.push(params ?? {});
      return users.find(params);
    },
    // As the users service's hook does: the plain password arrives and is hashed on the way in, and
    // a replaced hash becomes a condition of the write.
    patch: (id: any, data: Record<string, unknown>, params?: Params) => {
      patches.push([id, data, params]);
      const replaced = params?.[REPLACED_HASH_PARAM];
      return users.patch(
        id,
        { ...data, password: `h:${data.password}` },
        replaced === undefined ? {} : { query: { password: replaced } },
      );
    },
  };
  const { hasher, compares } = givenHasher();
  const warnings: unknown[] = [];
  const logger = { warn: (entry: unknown) => void warnings.push(entry) };
  return {
    strategy: new LocalAuthenticationStrategy({ users: () => spy, passwordHasher: hasher, logger }),
    finds,
    compares,
    users,
    patches,
    spy,
    warnings,
    hasher,
  };
}

describe('LocalAuthenticationStrategy', () => {
  it('returns the user (with its hash: the service strips it) for the right password', async () => {
    const { strategy, finds } = await givenStrategy();
    await expect(
      strategy.authenticate({ strategy: 'local', email: 'ann@example.com', password: 'pw' }),
    ).resolves.toEqual({
      authentication: { strategy: 'local' },
      user: { id: 0, email: 'ann@example.com', password: 'h:pw', name: 'Ann' },
    });
    // One internal lookup (no provider), one record, no pagination.
    expect(finds).toEqual([{ query: { email: 'ann@example.com', $limit: 1 }, paginate: false }]);
  });

  it(
    'fails a wrong password and an unknown user alike, comparing ' + 'against a dummy hash for the unknown one',
    async () => {
      const { strategy, compares } = await givenStrategy();
      await expect(
        strategy.authenticate({ strategy: 'local', email: 'ann@example.com', password: 'nope' }),
      ).rejects.toMatchObject({ name: 'NotAuthenticated', message: 'Invalid login' });
      await expect(
        strategy.authenticate({ strategy: 'local', email: 'bob@example.com', password: 'nope' }),
      ).rejects.toMatchObject({ name: 'NotAuthenticated', message: 'Invalid login' });
      expect(compares).toHaveLength(2);
      expect(compares[0]).toEqual(['nope', 'h:pw']);
      expect(compares[1][1]).toMatch(/^h:.{20,}/);
    },
  );

  it('fails a user without a password hash, still after one compare', async () => {
    const { strategy, compares } = await givenStrategy([{ email: 'oauth@example.com' }]);
    await expect(
      strategy.authenticate({ strategy: 'local', email: 'oauth@example.com', password: 'anything' }),
    ).rejects.toMatchObject({ message: 'Invalid login' });
    expect(compares).toHaveLength(1);
  });

  it.each([
    [{ email: { $ne: null }, password: 'pw' }],
    [{ email: { $gt: '' }, password: 'pw' }],
    [{ email: ['ann@example.com'], password: 'pw' }],
    [{ email: 'ann@example.com', password: { $ne: null } }],
    [{ email: 'ann@example.com', password: 12345 }],
    [{ email: 'ann@example.com', password: true }],
    [{ email: 'ann@example.com' }],
    [{ password: 'pw' }],
    [{ email: '', password: 'pw' }],
    [{ email: 'ann@example.com', password: 'x'.repeat(1025) }],
  ])('fails %j without any lookup or compare', async (fields) => {
    const { strategy, finds, compares } = await givenStrategy();
    await expect(strategy.authenticate({ strategy: 'local', ...fields })).rejects.toMatchObject({
      name: 'NotAuthenticated',
      message: 'Invalid login',
    });
    expect(finds).toHaveLength(0);
    expect(compares).toHaveLength(0);
  });

  it('reads other field names and a custom message', async () => {
    const users = new MemoryService();
    await users.create({ username: 'ann', secret: 'h:pw' });
    const { hasher } = givenHasher();
    const strategy = new LocalAuthenticationStrategy({
      users: () => users,
      passwordHasher: hasher,
      usernameField: 'username',
      passwordField: 'secret',
      errorMessage: 'Nope',
    });
    await expect(strategy.authenticate({ strategy: 'local', username: 'ann', secret: 'pw' })).resolves.toMatchObject({
      user: { username: 'ann' },
    });
    await expect(strategy.authenticate({ strategy: 'local', username: 'ann', secret: 'x' })).rejects.toMatchObject({
      message: 'Nope',
    });
  });

  it('replaces a legacy hash after a successful login, through an internal patch of the plain password', async () => {
    const { strategy, users, patches } = await givenStrategy([{ email: 'old@example.com', password: 'old:pw' }]);
    await expect(
      strategy.authenticate({ strategy: 'local', email: 'old@example.com', password: 'pw' }),
    ).resolves.toMatchObject({ user: { id: 0 } });
    // Only while the record still holds the hash that was verified.
    expect(patches).toEqual([[0, { password: 'pw' }, { [REPLACED_HASH_PARAM]: 'old:pw' }]]);
    expect(await users.get(0)).toMatchObject({ password: 'h:pw' });
    // Now current: the next login changes nothing.
    await strategy.authenticate({ strategy: 'local', email: 'old@example.com', password: 'pw' });
    expect(patches).toHaveLength(1);
  });

  it('leaves a password changed while the login compared: the old one is not stored over it', async () => {
    const { strategy, users, hasher, warnings } = await givenStrategy([
      { email: 'old@example.com', password: 'old:pw' },
    ]);
    const compare = hasher.compare;
    // The account's owner sets a new password while this login's compare runs.
    hasher.compare = async (password, hash) => {
      await users.patch(0, { password: 'h:new-pw' });
      return compare(password, hash);
    };
    await expect(
      strategy.authenticate({ strategy: 'local', email: 'old@example.com', password: 'pw' }),
    ).resolves.toMatchObject({ user: { id: 0 } });
    expect(await users.get(0)).toMatchObject({ password: 'h:new-pw' });
    expect(warnings).toEqual([]);
  });

  it('never touches a hash after a failed login or when it is current', async () => {
    const { strategy, patches } = await givenStrategy([
      { email: 'old@example.com', password: 'old:pw' },
      { email: 'ann@example.com', password: 'h:pw' },
    ]);
    await expect(
      strategy.authenticate({ strategy: 'local', email: 'old@example.com', password: 'wrong' }),
    ).rejects.toMatchObject({ name: 'NotAuthenticated' });
    await strategy.authenticate({ strategy: 'local', email: 'ann@example.com', password: 'pw' });
    expect(patches).toEqual([]);
  });

  it('still logs in when the upgrade fails, and warns without the password', async () => {
    const { strategy, spy, users, warnings } = await givenStrategy([
      { email: 'old@example.com', password: 'old:secret-pw' },
    ]);
    spy.patch = async () => {
      throw new Unavailable('database down');
    };
    await expect(
      strategy.authenticate({ strategy: 'local', email: 'old@example.com', password: 'secret-pw' }),
    ).resolves.toMatchObject({ user: { id: 0 } });
    expect(await users.get(0)).toMatchObject({ password: 'old:secret-pw' });
    expect(warnings).toEqual([{ userId: '0', error: { name: 'Unavailable', message: 'database down' } }]);
    expect(JSON.stringify(warnings)).not.toContain('secret-pw');
  });

  it("gives the warning the login's trace ids when the call is traced", async () => {
    const users = new MemoryService({ paginate: { default: 10, max: 50 } });
    await users.create({ email: 'old@example.com', password: 'old:secret-pw' });
    const warnings: unknown[] = [];
    const parent = { traced: true } as unknown as TraceParent;
    const strategy = new LocalAuthenticationStrategy({
      users: () => ({
        find: (params?: Params) => users.find(params),
        patch: async () => {
          throw new Unavailable('database down');
        },
      }),
      passwordHasher: givenHasher().hasher,
      logger: { warn: (entry: unknown) => void warnings.push(entry) },
      tracer: {
        logFields: (context): Record<string, string> =>
          context === parent ? { trace_id: 'a'.repeat(32), span_id: 'b'.repeat(16) } : {},
      },
    });
    await strategy.authenticate(
      { strategy: 'local', email: 'old@example.com', password: 'secret-pw' },
      { [TRACE_PARENT]: parent },
    );
    expect(warnings).toEqual([
      expect.objectContaining({ userId: '0', trace_id: 'a'.repeat(32), span_id: 'b'.repeat(16) }),
    ]);
  });

  it('passes a failing users service on as it is', async () => {
    const { hasher } = givenHasher();
    const strategy = new LocalAuthenticationStrategy({
      users: () => ({
        find: async () => {
          throw new Unavailable('users down');
        },
      }),
      passwordHasher: hasher,
    });
    await expect(
      strategy.authenticate({ strategy: 'local', email: 'a@example.com', password: 'pw' }),
    ).rejects.toMatchObject({ name: 'Unavailable' });
  });
});
