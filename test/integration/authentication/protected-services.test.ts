import request from 'supertest';
import type { ComposedApplication } from '../../../src/composition-root';
import { claims, forgeToken, givenAuthApp, logIn, PASSWORD, signUp, TEST_SECRET, type Agent } from './auth-test-app';

describe.each(['memory', 'mongo'])('authenticate(jwt) on messages and users on the %s store', (store) => {
  let composed: ComposedApplication;
  let agent: Agent;
  let annId: string;
  let bobId: string;
  let annToken: string;
  let bobToken: string;
  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

  beforeAll(async () => {
    composed = await givenAuthApp({ rateLimit: false }, { STORE: store });
    agent = request(composed.http);
    annId = (await signUp(agent, 'ann@example.com'))._id;
    bobId = (await signUp(agent, 'bob@example.com'))._id;
    annToken = await logIn(agent, 'ann@example.com');
    bobToken = await logIn(agent, 'bob@example.com');
  });
  afterAll(() => composed.close());

  it('refuses every messages method without a token: 401 Not authenticated', async () => {
    const calls = [
      agent.get('/messages'),
      agent.get(`/messages/${annId}`),
      agent.post('/messages').send({ text: 'x' }),
      agent.put(`/messages/${annId}`).send({ text: 'x' }),
      agent.patch(`/messages/${annId}`).send({ text: 'x' }),
      agent.delete(`/messages/${annId}`),
      agent.post('/messages').set('X-Service-Method', 'markRead').send({ id: annId }),
    ];
    for (const response of await Promise.all(calls)) {
      expect(response.status).toBe(401);
      expect(response.body).toEqual({
        name: 'NotAuthenticated',
        message: 'Not authenticated',
        code: 401,
        className: 'not-authenticated',
      });
    }
  });

  it('lets a valid token through and stamps userId from the authenticated user', async () => {
    const own = await agent.post('/messages').set(bearer(bobToken)).send({ text: 'hello' });
    expect(own.status).toBe(201);
    expect(own.body).toMatchObject({ text: 'hello', userId: bobId });
    // A client cannot pick another owner: the authenticated user wins.
    const spoofed = await agent.post('/messages').set(bearer(bobToken)).send({ text: 'hello', userId: annId });
    expect(spoofed.status).toBe(201);
    expect(spoofed.body.userId).toBe(bobId);
    const list = await agent.get('/messages').set(bearer(annToken));
    expect(list.status).toBe(200);
  });

  it('lets internal calls through without a token', async () => {
    await expect(composed.app.service('messages').find({ paginate: false })).resolves.toEqual(expect.any(Array));
  });

  it('sets params.user (without the hash) and params.authentication for the service', async () => {
    let seen: Record<string, any> = {};
    composed.app.service('messages').hooks({
      before: {
        get: [
          (context: any) => {
            seen = context.params;
          },
        ],
      },
    });
    await agent.get(`/messages/${annId}`).set(bearer(annToken));
    expect(JSON.parse(JSON.stringify(seen.user))).toEqual({ email: 'ann@example.com', _id: annId });
    expect(seen.authentication).toMatchObject({ strategy: 'jwt', accessToken: annToken, payload: { sub: annId } });
    expect(seen.authenticated).toBe(true);
  });

  const secret = { hmac: TEST_SECRET };
  it.each([
    ['a malformed token', () => 'not-a-jwt', 'jwt malformed', 'JsonWebTokenError'],
    [
      'a tampered signature',
      () => `${forgeToken({ alg: 'HS256', typ: 'access' }, claims(), secret).slice(0, -4)}AAAA`,
      'invalid signature',
      'JsonWebTokenError',
    ],
    [
      'alg none',
      () => forgeToken({ alg: 'none', typ: 'access' }, claims()),
      'jwt signature is required',
      'JsonWebTokenError',
    ],
    [
      'alg none with a signature',
      () => `${forgeToken({ alg: 'none', typ: 'access' }, claims())}c2ln`,
      'invalid algorithm',
      'JsonWebTokenError',
    ],
    [
      'an HS512 token',
      () => forgeToken({ alg: 'HS512', typ: 'access' }, claims(), secret),
      'invalid algorithm',
      'JsonWebTokenError',
    ],
    [
      'a wrong audience',
      () => forgeToken({ alg: 'HS256', typ: 'access' }, claims({ aud: 'https://other.example' }), secret),
      'jwt audience invalid. expected: hexa-services',
      'JsonWebTokenError',
    ],
    [
      'a wrong issuer',
      () => forgeToken({ alg: 'HS256', typ: 'access' }, claims({ iss: 'someone-else' }), secret),
      'jwt issuer invalid. expected: hexa-services',
      'JsonWebTokenError',
    ],
    [
      'a wrong typ (refresh)',
      () => forgeToken({ alg: 'HS256', typ: 'refresh' }, claims(), secret),
      'invalid token type',
      'JsonWebTokenError',
    ],
    [
      'a plain JWT typ',
      () => forgeToken({ alg: 'HS256', typ: 'JWT' }, claims(), secret),
      'invalid token type',
      'JsonWebTokenError',
    ],
    [
      'no exp claim',
      () => forgeToken({ alg: 'HS256', typ: 'access' }, claims({ exp: undefined }), secret),
      'jwt expiry missing',
      'JsonWebTokenError',
    ],
    [
      'another secret',
      () => forgeToken({ alg: 'HS256', typ: 'access' }, claims(), { hmac: 'x'.repeat(44) }),
      'invalid signature',
      'JsonWebTokenError',
    ],
  ])('refuses %s with 401 and the token problem', async (_case, makeToken, message, name) => {
    const response = await agent.get('/messages').set(bearer(makeToken()));
    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ name: 'NotAuthenticated', message, data: { name } });
  });

  it('refuses an expired token with data.name TokenExpiredError and expiredAt', async () => {
    const past = Math.floor(Date.now() / 1000) - 7200;
    const token = forgeToken({ alg: 'HS256', typ: 'access' }, claims({ iat: past - 60, exp: past }), secret);
    const response = await agent.get('/messages').set(bearer(token));
    expect(response.status).toBe(401);
    expect(response.body).toEqual({
      name: 'NotAuthenticated',
      message: 'jwt expired',
      code: 401,
      className: 'not-authenticated',
      data: { name: 'TokenExpiredError', expiredAt: new Date(past * 1000).toISOString() },
    });
    const login = await agent.post('/authentication').send({ strategy: 'jwt', accessToken: token });
    expect(login.status).toBe(401);
    expect(login.body.data.name).toBe('TokenExpiredError');
  });

  it('refuses the token of a deleted user with 401', async () => {
    await signUp(agent, 'gone@example.com');
    const token = await logIn(agent, 'gone@example.com');
    const me = (await agent.post('/authentication').send({ strategy: 'jwt', accessToken: token })).body.user;
    const removed = await agent.delete(`/users/${me._id}`).set(bearer(token));
    expect(removed.status).toBe(200);
    expect(removed.body).not.toHaveProperty('password');
    const after = await agent.get('/messages').set(bearer(token));
    expect(after.status).toBe(401);
    expect(after.body).toMatchObject({
      name: 'NotAuthenticated',
      message: 'The session of this access token has ended: log in again',
      data: { reason: 'revoked' },
    });
    expect((await agent.post('/authentication').send({ strategy: 'jwt', accessToken: token })).status).toBe(401);
  });

  describe('users', () => {
    it('allows public sign-up and stores only a scrypt hash', async () => {
      const created = await agent.post('/users').send({ email: 'cid@example.com', password: PASSWORD });
      expect(created.status).toBe(201);
      expect(created.body).not.toHaveProperty('password');
      const stored = await composed.app.service('users').get(created.body._id);
      expect(stored.password).toMatch(/^\$scrypt\$ln=10,r=8,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    });

    it('needs a token to find and get users', async () => {
      expect((await agent.get('/users')).status).toBe(401);
      expect((await agent.get(`/users/${annId}`)).status).toBe(401);
      const found = await agent.get('/users').set(bearer(annToken));
      expect(found.status).toBe(200);
      for (const user of found.body.data) expect(user).not.toHaveProperty('password');
    });

    it("shows everyone's name and only one's own e-mail; a query on someone else's e-mail finds nobody", async () => {
      const list = await agent.get('/users').set(bearer(annToken));
      expect(list.body.data).toEqual(
        expect.arrayContaining([{ _id: annId, email: 'ann@example.com' }, { _id: bobId }]),
      );
      expect(list.body.data.filter((user: { email?: string }) => user.email !== undefined)).toHaveLength(1);
      expect((await agent.get(`/users/${annId}`).set(bearer(annToken))).status).toBe(200);
      const other = await agent.get(`/users/${bobId}`).set(bearer(annToken));
      expect(other.body).toEqual({ _id: bobId });
      expect(other.text).not.toContain('bob@example.com');
      // Matching on a field one may not read would be an oracle: it reaches only one's own account.
      expect((await agent.get('/users?email=bob%40example.com').set(bearer(annToken))).body).toMatchObject({
        total: 0,
        data: [],
      });
      expect((await agent.get('/users?email=ann%40example.com').set(bearer(annToken))).body).toMatchObject({
        total: 1,
      });
    });

    it('lets users change only themselves (403 otherwise)', async () => {
      const other = await agent.patch(`/users/${bobId}`).set(bearer(annToken)).send({ name: 'Mallory' });
      expect(other.status).toBe(403);
      expect(other.body).toMatchObject({ name: 'Forbidden' });
      expect(
        (
          await agent
            .put(`/users/${bobId}`)
            .set(bearer(annToken))
            .send({ email: 'x@example.com', password: PASSWORD, currentPassword: PASSWORD })
        ).status,
      ).toBe(403);
      expect((await agent.delete(`/users/${bobId}`).set(bearer(annToken))).status).toBe(403);
      // Several accounts at once: not a method users offer at all.
      expect((await agent.patch('/users').set(bearer(annToken)).send({ name: 'All' })).status).toBe(405);
      expect((await agent.patch(`/users/${bobId}`).send({ name: 'Anon' })).status).toBe(401);
      const own = await agent.patch(`/users/${annId}`).set(bearer(annToken)).send({ name: 'Ann' });
      expect(own.status).toBe(200);
      expect(own.body).toEqual({ email: 'ann@example.com', _id: annId, name: 'Ann' });
    });

    it('hashes a patched password, so the new one logs in', async () => {
      const changed = await agent
        .patch(`/users/${bobId}`)
        .set(bearer(bobToken))
        .send({ password: 'a brand new password', currentPassword: PASSWORD });
      expect(changed.status).toBe(200);
      const stored = await composed.app.service('users').get(bobId);
      expect(stored.password).toMatch(/^\$scrypt\$/);
      await expect(logIn(agent, 'bob@example.com', 'a brand new password')).resolves.toEqual(expect.any(String));
      expect(
        (await agent.post('/authentication').send({ strategy: 'local', email: 'bob@example.com', password: PASSWORD }))
          .status,
      ).toBe(401);
    });
  });
});
