import { MemoryService } from '../../../../src/adapters/memory';
import { LocalAuthenticationStrategy } from '../../../../src/adapters/passport/local.strategy';
import { Unavailable } from '../../../../src/domain/errors';
import type { Params } from '../../../../src/ports/service-params';
import type { PasswordHasherPort } from '../../../../src/ports/password-hasher.port';

/** A transparent hasher: hash(x) = 'h:' + x; records every compare. */
function givenHasher() {
  const compares: [string, string][] = [];
  const hasher: PasswordHasherPort = {
    hash: async (password) => `h:${password}`,
    compare: async (password, hash) => { compares.push([password, hash]); return hash === `h:${password}`; },
  };
  return { hasher, compares };
}

async function givenStrategy(records: Record<string, any>[] = [{ email: 'ann@example.com', password: 'h:pw', name: 'Ann' }]) {
  const users = new MemoryService({ paginate: { default: 10, max: 50 } });
  for (const record of records) await users.create(record);
  const finds: Params[] = [];
  const spy = { find: (params?: Params) => { finds.push(params ?? {}); return users.find(params); } };
  const { hasher, compares } = givenHasher();
  return { strategy: new LocalAuthenticationStrategy({ users: () => spy, passwordHasher: hasher }), finds, compares, users };
}

describe('LocalAuthenticationStrategy', () => {
  it('returns the user (with its hash: the service strips it) for the right password', async () => {
    const { strategy, finds } = await givenStrategy();
    await expect(strategy.authenticate({ strategy: 'local', email: 'ann@example.com', password: 'pw' })).resolves.toEqual({
      authentication: { strategy: 'local' }, user: { id: 0, email: 'ann@example.com', password: 'h:pw', name: 'Ann' },
    });
    // One internal lookup (no provider), one record, no pagination.
    expect(finds).toEqual([{ query: { email: 'ann@example.com', $limit: 1 }, paginate: false }]);
  });

  it('fails a wrong password and an unknown user alike, comparing against a dummy hash for the unknown one', async () => {
    const { strategy, compares } = await givenStrategy();
    await expect(strategy.authenticate({ strategy: 'local', email: 'ann@example.com', password: 'nope' })).rejects.toMatchObject({ name: 'NotAuthenticated', message: 'Invalid login' });
    await expect(strategy.authenticate({ strategy: 'local', email: 'bob@example.com', password: 'nope' })).rejects.toMatchObject({ name: 'NotAuthenticated', message: 'Invalid login' });
    expect(compares).toHaveLength(2);
    expect(compares[0]).toEqual(['nope', 'h:pw']);
    expect(compares[1][1]).toMatch(/^h:.{20,}/);
  });

  it('fails a user without a password hash, still after one compare', async () => {
    const { strategy, compares } = await givenStrategy([{ email: 'oauth@example.com' }]);
    await expect(strategy.authenticate({ strategy: 'local', email: 'oauth@example.com', password: 'anything' })).rejects.toMatchObject({ message: 'Invalid login' });
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
    await expect(strategy.authenticate({ strategy: 'local', ...fields })).rejects.toMatchObject({ name: 'NotAuthenticated', message: 'Invalid login' });
    expect(finds).toHaveLength(0);
    expect(compares).toHaveLength(0);
  });

  it('reads other field names and a custom message', async () => {
    const users = new MemoryService();
    await users.create({ username: 'ann', secret: 'h:pw' });
    const { hasher } = givenHasher();
    const strategy = new LocalAuthenticationStrategy({ users: () => users, passwordHasher: hasher, usernameField: 'username', passwordField: 'secret', errorMessage: 'Nope' });
    await expect(strategy.authenticate({ strategy: 'local', username: 'ann', secret: 'pw' })).resolves.toMatchObject({ user: { username: 'ann' } });
    await expect(strategy.authenticate({ strategy: 'local', username: 'ann', secret: 'x' })).rejects.toMatchObject({ message: 'Nope' });
  });

  it('passes a failing users service on as it is', async () => {
    const { hasher } = givenHasher();
    const strategy = new LocalAuthenticationStrategy({ users: () => ({ find: async () => { throw new Unavailable('users down'); } }), passwordHasher: hasher });
    await expect(strategy.authenticate({ strategy: 'local', email: 'a@example.com', password: 'pw' })).rejects.toMatchObject({ name: 'Unavailable' });
  });
});
