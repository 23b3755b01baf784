import { BOTH_STORES, startApp, type RunningApp } from '../../helpers/app-server';
import { PASSWORD, uniqueEmail } from '../../helpers/accounts';
import { call } from '../../helpers/http';
import { RecordingSocket } from '../../helpers/socket-clients';

const sidOf = (token: string): string => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8')).sid;

describe.each(BOTH_STORES)('GET and DELETE /sessions on the %s store', (_store, env) => {
  let app: RunningApp;

  beforeAll(async () => {
    app = await startApp(env);
  }, 60_000);
  afterAll(() => app?.close());

  async function login(email: string, userAgent: string) {
    const response = await call(app.url, 'POST', '/authentication', {
      body: { strategy: 'local', email, password: PASSWORD },
      headers: { 'user-agent': userAgent },
    });
    expect(response.status).toBe(201);
    return response.body as { accessToken: string; refreshToken: string };
  }

  async function account() {
    const email = uniqueEmail('sessions-service');
    expect((await call(app.url, 'POST', '/users', { body: { email, password: PASSWORD } })).status).toBe(201);
    return { email, laptop: await login(email, 'laptop-browser/1.0'), phone: await login(email, 'phone-app/2.0') };
  }

  it('lists my sessions: when each started and was last used, from which client; never a hash', async () => {
    const { laptop, phone } = await account();
    await account();
    const response = await call(app.url, 'GET', '/sessions', { token: laptop.accessToken });
    expect(response.status).toBe(200);
    expect(response.body.total).toBe(2);
    const byAgent = Object.fromEntries(
      response.body.data.map((session: Record<string, unknown>) => [session.userAgent, session]),
    );
    expect(byAgent['laptop-browser/1.0']).toEqual({
      _id: sidOf(laptop.accessToken),
      userAgent: 'laptop-browser/1.0',
      address: expect.stringMatching(/127\.0\.0\.1/),
      createdAt: expect.any(String),
      lastUsedAt: expect.any(String),
      expiresAt: expect.any(String),
    });
    expect(byAgent['phone-app/2.0']._id).toBe(sidOf(phone.accessToken));
    expect(response.text).not.toMatch(/refreshTokenHash|rotatedTokenHashes|userId|[0-9a-f]{64}/);
    const one = await call(app.url, 'GET', `/sessions/${sidOf(phone.accessToken)}`, { token: laptop.accessToken });
    expect(one.body).toEqual(byAgent['phone-app/2.0']);
  });

  it('a refresh moves "last used" on', async () => {
    const { laptop } = await account();
    const [before] = (await call(app.url, 'GET', '/sessions', { token: laptop.accessToken })).body.data.filter(
      (session: { _id: string }) => session._id === sidOf(laptop.accessToken),
    );
    const refreshed = await call(app.url, 'POST', '/authentication', {
      body: { strategy: 'refresh', refreshToken: laptop.refreshToken },
    });
    const [after] = (await call(app.url, 'GET', '/sessions', { token: refreshed.body.accessToken })).body.data.filter(
      (session: { _id: string }) => session._id === sidOf(laptop.accessToken),
    );
    expect(Date.parse(after.lastUsedAt)).toBeGreaterThanOrEqual(Date.parse(before.lastUsedAt));
    expect(Date.parse(after.expiresAt)).toBeGreaterThanOrEqual(Date.parse(before.expiresAt));
    expect(after.createdAt).toBe(before.createdAt);
  });

  it('DELETE /sessions/:id ends that session (its tokens are refused at once) and no other', async () => {
    const { laptop, phone } = await account();
    expect(
      (await call(app.url, 'DELETE', `/sessions/${sidOf(phone.accessToken)}`, { token: laptop.accessToken })).status,
    ).toBe(200);
    expect((await call(app.url, 'GET', '/messages', { token: phone.accessToken })).body).toMatchObject({
      code: 401,
      data: { reason: 'revoked' },
    });
    expect(
      (
        await call(app.url, 'POST', '/authentication', {
          body: { strategy: 'refresh', refreshToken: phone.refreshToken },
        })
      ).status,
    ).toBe(401);
    expect((await call(app.url, 'GET', '/messages', { token: laptop.accessToken })).status).toBe(200);
  });

  it("nobody sees or ends another user's session: it does not exist for them (404)", async () => {
    const ann = await account();
    const bob = await account();
    const annSession = sidOf(ann.laptop.accessToken);
    const listed = await call(app.url, 'GET', '/sessions', { token: bob.laptop.accessToken });
    expect(listed.body.data.map((session: { _id: string }) => session._id)).not.toContain(annSession);
    expect((await call(app.url, 'GET', `/sessions/${annSession}`, { token: bob.laptop.accessToken })).status).toBe(404);
    expect((await call(app.url, 'DELETE', `/sessions/${annSession}`, { token: bob.laptop.accessToken })).status).toBe(
      404,
    );
    // A query cannot reach past the policy either: the owner field is not one a client may filter by.
    const annId = JSON.parse(Buffer.from(ann.laptop.accessToken.split('.')[1], 'base64url').toString('utf8')).sub;
    const asked = await call(app.url, 'GET', `/sessions?userId=${annId}`, { token: bob.laptop.accessToken });
    expect(asked.status).toBe(403);
    expect(asked.text).not.toContain(annSession);
    // Bob's attempt to end all sessions ends his own only.
    expect((await call(app.url, 'DELETE', '/sessions', { token: bob.laptop.accessToken })).status).toBe(200);
    expect((await call(app.url, 'GET', '/messages', { token: bob.phone.accessToken })).status).toBe(401);
    expect((await call(app.url, 'GET', '/messages', { token: ann.laptop.accessToken })).status).toBe(200);
  });

  it('needs a token, and no client creates or changes a session', async () => {
    const { laptop } = await account();
    expect((await call(app.url, 'GET', '/sessions')).status).toBe(401);
    expect((await call(app.url, 'DELETE', `/sessions/${sidOf(laptop.accessToken)}`)).status).toBe(401);
    for (const method of ['POST', 'PUT', 'PATCH']) {
      const path = method === 'POST' ? '/sessions' : `/sessions/${sidOf(laptop.accessToken)}`;
      expect(
        (
          await call(app.url, method, path, {
            token: laptop.accessToken,
            body: { userId: 'someone', expiresAt: '2999-01-01' },
          })
        ).status,
      ).toBe(405);
    }
  });

  it('over a socket too, and session changes are never published as events', async () => {
    const { laptop, phone } = await account();
    const socket = new RecordingSocket(app.url);
    try {
      await socket.connected();
      await socket.call('create', 'authentication', { strategy: 'jwt', accessToken: laptop.accessToken }, {});
      const [error, page] = (await socket.call('find', 'sessions', {})) as [unknown, { total: number }];
      expect(error).toBeNull();
      expect(page.total).toBe(2);
      await call(app.url, 'POST', '/authentication', {
        body: { strategy: 'refresh', refreshToken: phone.refreshToken },
      });
      const [removeError] = await socket.call('remove', 'sessions', sidOf(phone.accessToken), {});
      expect(removeError).toBeNull();
      expect(socket.events.filter(([name]) => name.startsWith('sessions'))).toEqual([]);
    } finally {
      socket.close();
    }
  });
});
