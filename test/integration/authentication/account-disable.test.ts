import { PASSWORD, signUpAndLogIn, type Account } from '../../helpers/accounts';
import { BOTH_STORES, startApp, type RunningApp } from '../../helpers/app-server';
import { call } from '../../helpers/http';

const idOf = (record: Record<string, any>) => String(record._id);

/**
 * An administrator disables an account (`PATCH /users/:id { disabled: true }`): its sessions end
 * at once (its access and refresh tokens are refused), it cannot log in, and only an
 * administrator may disable or enable one.
 */
describe.each(BOTH_STORES)('disabling an account on %s', (_store, env) => {
  let app: RunningApp;
  let ada: Account;
  let bob: Account;
  let admin: Account;

  beforeAll(async () => {
    app = await startApp(env);
    ada = await signUpAndLogIn(app.url);
    bob = await signUpAndLogIn(app.url);
    const chief = await signUpAndLogIn(app.url);
    await app.composed.app.lookup('users')!.original._patch(idOf(chief.user), { roles: ['admin'] });
    const login = await call(app.url, 'POST', '/authentication', {
      body: { strategy: 'local', email: chief.user.email, password: PASSWORD },
    });
    admin = { user: chief.user, token: login.body.accessToken };
  });
  afterAll(() => app.close());

  it('is for administrators only: neither another user nor the user themself may write it', async () => {
    expect(
      (await call(app.url, 'PATCH', `/users/${idOf(ada.user)}`, { token: bob.token, body: { disabled: true } })).status,
    ).toBe(403);
    const own = await call(app.url, 'PATCH', `/users/${idOf(ada.user)}`, {
      token: ada.token,
      body: { disabled: true },
    });
    expect(own.status).toBe(403);
    expect(own.body.message).toBe('You may not patch disabled');
  });

  it('ends every session of the account at once and refuses its logins until enabled again', async () => {
    const login = await call(app.url, 'POST', '/authentication', {
      body: { strategy: 'local', email: ada.user.email, password: PASSWORD },
    });
    const { accessToken, refreshToken } = login.body;
    expect((await call(app.url, 'GET', '/messages', { token: accessToken })).status).toBe(200);
    const disabled = await call(app.url, 'PATCH', `/users/${idOf(ada.user)}`, {
      token: admin.token,
      body: { disabled: true },
    });
    expect(disabled.status).toBe(200);
    expect(disabled.body.disabled).toBe(true);
    expect((await call(app.url, 'GET', '/messages', { token: accessToken })).status).toBe(401);
    expect((await call(app.url, 'GET', '/messages', { token: ada.token })).status).toBe(401);
    expect(
      (await call(app.url, 'POST', '/authentication', { body: { strategy: 'refresh', refreshToken } })).status,
    ).toBe(401);
    const refused = await call(app.url, 'POST', '/authentication', {
      body: { strategy: 'local', email: ada.user.email, password: PASSWORD },
    });
    expect(refused.status).toBe(401);
    expect(refused.body.message).toBe('Invalid login');
    // A replacement by an administrator keeps it (a server-owned field).
    expect(
      (
        await call(app.url, 'PUT', `/users/${idOf(ada.user)}`, {
          token: admin.token,
          body: { email: ada.user.email, password: PASSWORD, currentPassword: PASSWORD },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await call(app.url, 'POST', '/authentication', {
          body: { strategy: 'local', email: ada.user.email, password: PASSWORD },
        })
      ).status,
    ).toBe(401);
    expect(
      (await call(app.url, 'PATCH', `/users/${idOf(ada.user)}`, { token: admin.token, body: { disabled: false } }))
        .status,
    ).toBe(200);
    expect(
      (
        await call(app.url, 'POST', '/authentication', {
          body: { strategy: 'local', email: ada.user.email, password: PASSWORD },
        })
      ).status,
    ).toBe(201);
  });
});
