import type { HookContext } from '../../../src/application/hooks/hook-context';
import { PASSWORD, signUpAndLogIn, uniqueEmail, type Account } from '../../helpers/accounts';
import { BOTH_STORES, startApp, type RunningApp } from '../../helpers/app-server';
import { call } from '../../helpers/http';

const HASH = /\$2[aby]\$\d\d\$|\$scrypt\$/;

/**
 * The password (and its hash) never leaves the server: not from any users method, not in the
 * login response, not through `$select`, not in what an event would publish, not in errors.
 */
describe.each(BOTH_STORES)('security: hidden fields on %s', (_store, env) => {
  let app: RunningApp;
  let alice: Account;
  let aliceId: string;
  const published: unknown[] = [];

  beforeAll(async () => {
    app = await startApp(env);
    // What a real-time transport would publish: the caller's view (`dispatch`) when a hook set one.
    const users = app.composed.app.service('users');
    for (const event of ['created', 'updated', 'patched', 'removed']) {
      users.on(event, (item: unknown, context: HookContext) => {
        if (context.params.provider) published.push(context.dispatch ?? item);
      });
    }
    alice = await signUpAndLogIn(app.url);
    aliceId = String(alice.user._id ?? alice.user.id);
  }, 60_000);
  afterAll(() => app?.close());

  const expectNoSecret = (text: string) => {
    expect(text).not.toMatch(HASH);
    expect(text).not.toContain('"password"');
    expect(text).not.toContain(PASSWORD);
  };

  it('sign-up and login responses carry no password', async () => {
    const email = uniqueEmail('hidden');
    const created = await call(app.url, 'POST', '/users', { body: { email, password: PASSWORD } });
    expect(created.status).toBe(201);
    expectNoSecret(created.text);
    const login = await call(app.url, 'POST', '/authentication', {
      body: { strategy: 'local', email, password: PASSWORD },
    });
    expect(login.status).toBe(201);
    expectNoSecret(login.text);
    const reauth = await call(app.url, 'POST', '/authentication', {
      body: { strategy: 'jwt', accessToken: login.body.accessToken },
    });
    expectNoSecret(reauth.text);
  });

  it('find, get, patch, update and remove responses carry no password', async () => {
    const { token } = alice;
    const responses = [
      await call(app.url, 'GET', '/users', { token }),
      await call(app.url, 'GET', `/users?email=${encodeURIComponent(alice.user.email)}`, { token }),
      await call(app.url, 'GET', `/users/${aliceId}`, { token }),
      await call(app.url, 'PATCH', `/users/${aliceId}`, { token, body: { name: 'Alice' } }),
      await call(app.url, 'PATCH', `/users/${aliceId}`, {
        token,
        body: { password: PASSWORD, currentPassword: PASSWORD },
      }),
      await call(app.url, 'PUT', `/users/${aliceId}`, {
        token,
        body: { email: alice.user.email, password: PASSWORD, name: 'A', currentPassword: PASSWORD },
      }),
    ];
    for (const response of responses) {
      expect(response.status).toBe(200);
      expectNoSecret(response.text);
    }
    const victim = await signUpAndLogIn(app.url);
    const victimId = String(victim.user._id ?? victim.user.id);
    const removed = await call(app.url, 'DELETE', `/users/${victimId}`, { token: victim.token });
    expect(removed.status).toBe(200);
    expectNoSecret(removed.text);
  });

  it.each([
    '$select[0]=password',
    '$select[0]=email&$select[1]=password',
    '$select[0]=password.0',
    '$sort[password]=1',
  ])('a query naming the password (%s) is refused or returns no password', async (query) => {
    const response = await call(app.url, 'GET', `/users?${query}`, { token: alice.token });
    if (response.status === 200) expectNoSecret(response.text);
    else expect(response.status).toBe(400);
  });

  it('session answers carry no refresh token or hash of one, whatever the query names', async () => {
    const email = uniqueEmail('hidden-sessions');
    await call(app.url, 'POST', '/users', { body: { email, password: PASSWORD } });
    const login = (
      await call(app.url, 'POST', '/authentication', { body: { strategy: 'local', email, password: PASSWORD } })
    ).body;
    const refreshed = await call(app.url, 'POST', '/authentication', {
      body: { strategy: 'refresh', refreshToken: login.refreshToken },
    });
    expectNoSecret(refreshed.text);
    const token = refreshed.body.accessToken;
    const sid = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8')).sid;
    const responses = [
      await call(app.url, 'GET', '/sessions', { token }),
      await call(app.url, 'GET', `/sessions/${sid}`, { token }),
      await call(app.url, 'GET', '/sessions?$select[0]=refreshTokenHash', { token }),
      await call(app.url, 'GET', '/sessions?$select[0]=rotatedTokenHashes', { token }),
      await call(app.url, 'GET', '/sessions?$sort[refreshTokenHash]=1', { token }),
      await call(app.url, 'DELETE', `/sessions/${sid}`, { token }),
    ];
    for (const response of responses) {
      expect([200, 400, 403]).toContain(response.status);
      expect(response.text).not.toMatch(/"(refreshTokenHash|rotatedTokenHashes)":|[0-9a-f]{64}/);
      for (const secret of [login.refreshToken, refreshed.body.refreshToken])
        expect(response.text).not.toContain(secret.split('.')[1]);
    }
    expect(responses[0].status).toBe(200);
    expect(responses[5].status).toBe(200);
  });

  it('errors about users carry no password or hash', async () => {
    const duplicate = await call(app.url, 'POST', '/users', { body: { email: alice.user.email, password: PASSWORD } });
    expect(duplicate.status).toBe(409);
    expectNoSecret(duplicate.text);
    const invalid = await call(app.url, 'POST', '/users', { body: { email: 'not-an-email', password: PASSWORD } });
    expect(invalid.status).toBe(400);
    expectNoSecret(invalid.text);
  });

  it('what the events of external calls would publish carries no password', () => {
    expect(published.length).toBeGreaterThan(0);
    expectNoSecret(JSON.stringify(published));
  });
});
