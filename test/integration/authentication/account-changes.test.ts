import { BOTH_STORES, startApp, type RunningApp } from '../../helpers/app-server';
import { PASSWORD, uniqueEmail } from '../../helpers/accounts';
import { call } from '../../helpers/http';

/** Changing the password or the e-mail takes the current password, and a new password ends the other sessions. */
describe.each(BOTH_STORES)('account changes on the %s store', (_store, env) => {
  let app: RunningApp;

  beforeAll(async () => {
    app = await startApp(env);
  }, 60_000);
  afterAll(() => app?.close());

  async function account() {
    const email = uniqueEmail('account');
    const user = (await call(app.url, 'POST', '/users', { body: { email, password: PASSWORD } })).body;
    const login = async () =>
      (await call(app.url, 'POST', '/authentication', { body: { strategy: 'local', email, password: PASSWORD } })).body;
    return { email, id: String(user._id), here: await login(), elsewhere: await login() };
  }

  const required = {
    name: 'BadRequest',
    code: 400,
    errors: { currentPassword: ['currentPassword is required to change the password or the email'] },
  };
  const wrong = {
    name: 'BadRequest',
    code: 400,
    errors: { currentPassword: ['currentPassword is not the current password'] },
  };

  it.each([
    ['PATCH', { password: 'a new long password' }],
    ['PATCH', { email: 'elsewhere@example.com' }],
    ['PUT', { email: 'elsewhere@example.com', password: 'a new long password' }],
  ])('%s %j without the current password, or with a wrong one, is a 400 that changes nothing', async (method, data) => {
    const { id, email, here } = await account();
    expect((await call(app.url, method, `/users/${id}`, { token: here.accessToken, body: data })).body).toMatchObject(
      required,
    );
    expect(
      (
        await call(app.url, method, `/users/${id}`, {
          token: here.accessToken,
          body: { ...data, currentPassword: 'not the password' },
        })
      ).body,
    ).toMatchObject(wrong);
    expect(
      (await call(app.url, method, `/users/${id}`, { token: here.accessToken, body: { ...data, currentPassword: 42 } }))
        .status,
    ).toBe(400);
    expect((await call(app.url, 'GET', `/users/${id}`, { token: here.accessToken })).body.email).toBe(email);
    expect(
      (await call(app.url, 'POST', '/authentication', { body: { strategy: 'local', email, password: PASSWORD } }))
        .status,
    ).toBe(201);
  });

  it('other changes need no current password, and it is never stored', async () => {
    const { id, here } = await account();
    const renamed = await call(app.url, 'PATCH', `/users/${id}`, { token: here.accessToken, body: { name: 'Ann' } });
    expect(renamed.status).toBe(200);
    const withIt = await call(app.url, 'PATCH', `/users/${id}`, {
      token: here.accessToken,
      body: { name: 'Ann B', currentPassword: PASSWORD },
    });
    expect(withIt.body).not.toHaveProperty('currentPassword');
    expect(await app.composed.app.service('users').get(id)).not.toHaveProperty('currentPassword');
  });

  it('a new e-mail with the current password: the next login uses it', async () => {
    const { id, here } = await account();
    const email = uniqueEmail('moved');
    expect(
      (
        await call(app.url, 'PATCH', `/users/${id}`, {
          token: here.accessToken,
          body: { email, currentPassword: PASSWORD },
        })
      ).status,
    ).toBe(200);
    expect(
      (await call(app.url, 'POST', '/authentication', { body: { strategy: 'local', email, password: PASSWORD } }))
        .status,
    ).toBe(201);
  });

  it(
    'a new password with the current one ends every other session ' + '(access and refresh tokens) and keeps mine',
    async () => {
      const { id, email, here, elsewhere } = await account();
      const changed = await call(app.url, 'PATCH', `/users/${id}`, {
        token: here.accessToken,
        body: { password: 'a new long password', currentPassword: PASSWORD },
      });
      expect(changed.status).toBe(200);
      expect(changed.text).not.toMatch(/password"|scrypt/);
      expect((await call(app.url, 'GET', '/messages', { token: here.accessToken })).status).toBe(200);
      expect((await call(app.url, 'GET', '/messages', { token: elsewhere.accessToken })).body).toMatchObject({
        code: 401,
        data: { reason: 'revoked' },
      });
      expect(
        (
          await call(app.url, 'POST', '/authentication', {
            body: { strategy: 'refresh', refreshToken: elsewhere.refreshToken },
          })
        ).status,
      ).toBe(401);
      expect(
        (
          await call(app.url, 'POST', '/authentication', {
            body: { strategy: 'refresh', refreshToken: here.refreshToken },
          })
        ).status,
      ).toBe(201);
      expect(
        (
          await call(app.url, 'POST', '/authentication', {
            body: { strategy: 'local', email, password: 'a new long password' },
          })
        ).status,
      ).toBe(201);
    },
  );

  it("someone else's account stays refused (403) whatever password is given", async () => {
    const ann = await account();
    const bob = await account();
    const response = await call(app.url, 'PATCH', `/users/${bob.id}`, {
      token: ann.here.accessToken,
      body: { password: 'taken over!!', currentPassword: PASSWORD },
    });
    expect(response.status).toBe(403);
    expect((await call(app.url, 'GET', '/messages', { token: bob.elsewhere.accessToken })).status).toBe(200);
  });
});
