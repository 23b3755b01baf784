import { BOTH_STORES, type RunningApp } from '../../helpers/app-server';
import { PASSWORD, uniqueEmail } from '../../helpers/accounts';
import { call } from '../../helpers/http';
import { pause, RecordingSocket, waitFor } from '../../helpers/socket-clients';
import { Tokens } from '../../../src/composition/tokens';
import { startRecordedApp } from './support/session-app';

const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8'));

describe.each(BOTH_STORES)('sessions on the %s store', (_store, env) => {
  let app: RunningApp & { log: string[] };
  /** Every token any test saw: none may ever be logged. */
  const secrets: string[] = [];

  beforeAll(async () => {
    app = await startRecordedApp(env);
  }, 60_000);
  afterAll(() => app?.close());

  async function login(email: string, password = PASSWORD, headers: Record<string, string> = {}) {
    const response = await call(app.url, 'POST', '/authentication', {
      body: { strategy: 'local', email, password },
      headers,
    });
    expect(response.status).toBe(201);
    secrets.push(response.body.accessToken, response.body.refreshToken);
    return response.body as { accessToken: string; refreshToken: string; user: Record<string, any> };
  }

  async function account() {
    const email = uniqueEmail('session');
    const created = await call(app.url, 'POST', '/users', { body: { email, password: PASSWORD } });
    expect(created.status).toBe(201);
    const tokens = await login(email);
    return { ...tokens, email, user: created.body as Record<string, any> };
  }

  const refresh = (refreshToken: unknown) =>
    call(app.url, 'POST', '/authentication', { body: { strategy: 'refresh', refreshToken } });
  const messages = (token: string) => call(app.url, 'GET', '/messages', { token });

  it('a login answers a short access token of a session and an opaque refresh token', async () => {
    const { accessToken, refreshToken, user } = await account();
    const claims = claimsOf(accessToken);
    expect(claims.exp - claims.iat).toBe(15 * 60);
    expect(claims.sid).toMatch(/^[0-9a-f-]{36}$/);
    expect(refreshToken.startsWith(`${claims.sid}.`)).toBe(true);
    expect(refreshToken).toMatch(/^[0-9a-f-]{36}\.[0-9a-f]{64}$/);
    // Only the refresh token's hash is stored.
    const stored = await app.composed.app.service('sessions').get(claims.sid);
    expect(stored).toMatchObject({
      userId: user._id,
      refreshTokenHash: expect.stringMatching(/^[0-9a-f]{64}$/),
      rotatedTokenHashes: [],
    });
    expect(JSON.stringify(stored)).not.toContain(refreshToken.split('.')[1]);
  });

  it('a refresh answers a new pair of the same session and the used refresh token is spent (rotation)', async () => {
    const first = await account();
    const refreshed = await refresh(first.refreshToken);
    expect(refreshed.status).toBe(201);
    secrets.push(refreshed.body.accessToken, refreshed.body.refreshToken);
    expect(Object.keys(refreshed.body).sort()).toEqual(['accessToken', 'authentication', 'refreshToken', 'user']);
    expect(refreshed.body.user).toEqual(first.user);
    expect(refreshed.body.authentication.strategy).toBe('refresh');
    expect(refreshed.body.refreshToken).not.toBe(first.refreshToken);
    expect(claimsOf(refreshed.body.accessToken).sid).toBe(claimsOf(first.accessToken).sid);
    expect((await messages(refreshed.body.accessToken)).status).toBe(200);
    // The next refresh token works once more, so a client goes on for as long as it refreshes.
    const again = await refresh(refreshed.body.refreshToken);
    expect(again.status).toBe(201);
    secrets.push(again.body.accessToken, again.body.refreshToken);
  });

  it(
    'presenting a rotated refresh token again ends the whole ' + 'session: every token of that login is refused',
    async () => {
      const victim = await account();
      const rotated = await refresh(victim.refreshToken);
      secrets.push(rotated.body.accessToken, rotated.body.refreshToken);
      const reused = await refresh(victim.refreshToken);
      expect(reused.status).toBe(401);
      expect(reused.body).toMatchObject({ name: 'NotAuthenticated', data: { reason: 'revoked' } });
      for (const token of [victim.accessToken, rotated.body.accessToken])
        expect((await messages(token)).body).toMatchObject({ code: 401, data: { reason: 'revoked' } });
      expect((await refresh(rotated.body.refreshToken)).status).toBe(401);
    },
  );

  it('refuses malformed, unknown and forged refresh tokens with one 401, ending nothing', async () => {
    const owner = await account();
    const sid = claimsOf(owner.accessToken).sid;
    for (const bad of [
      undefined,
      '',
      42,
      { $ne: null },
      'garbage',
      `${sid}.${'0'.repeat(64)}`,
      `${'0'.repeat(8)}-0000-0000-0000-${'0'.repeat(12)}.${'a'.repeat(64)}`,
    ]) {
      const response = await refresh(bad);
      expect(response.status).toBe(401);
      expect(response.body.message).toBe('Invalid refresh token');
    }
    // A guess that names a real session does not end it.
    expect((await messages(owner.accessToken)).status).toBe(200);
  });

  it('logout refuses the access token and the refresh token of that session at once, and no other', async () => {
    const { email, accessToken, refreshToken } = await account();
    const other = await login(email);
    expect((await call(app.url, 'DELETE', '/authentication', { token: accessToken })).status).toBe(200);
    expect((await messages(accessToken)).body).toMatchObject({
      code: 401,
      message: 'The session of this access token has ended: log in again',
      data: { reason: 'revoked' },
    });
    expect((await refresh(refreshToken)).status).toBe(401);
    expect((await messages(other.accessToken)).status).toBe(200);
  });

  it('DELETE /authentication?all=true ends every session of the user', async () => {
    const { email, accessToken } = await account();
    const second = await login(email);
    const stranger = await account();
    expect((await call(app.url, 'DELETE', '/authentication?all=true', { token: accessToken })).status).toBe(200);
    for (const token of [accessToken, second.accessToken]) expect((await messages(token)).status).toBe(401);
    expect((await refresh(second.refreshToken)).status).toBe(401);
    expect((await messages(stranger.accessToken)).status).toBe(200);
  });

  it('removing a user ends all of their sessions', async () => {
    const { email, user, accessToken } = await account();
    const second = await login(email);
    expect((await call(app.url, 'DELETE', `/users/${user._id}`, { token: accessToken })).status).toBe(200);
    expect((await refresh(second.refreshToken)).status).toBe(401);
    expect(await app.composed.app.service('sessions').find({ query: { userId: user._id }, paginate: false })).toEqual(
      [],
    );
  });

  it(
    'a revoked session is refused over a socket: the connection ' + 'becomes anonymous and stops hearing events',
    async () => {
      const { accessToken } = await account();
      const listener = new RecordingSocket(app.url);
      try {
        await listener.connected();
        const [error] = await listener.call('create', 'authentication', { strategy: 'jwt', accessToken }, {});
        expect(error).toBeNull();
        const writer = await account();
        await call(app.url, 'POST', '/messages', { token: writer.accessToken, body: { text: 'heard' } });
        await waitFor(() => listener.named('messages created').length === 1, 'the event before the logout');
        // The session ends elsewhere (a logout over REST): the socket is told nothing but loses its login.
        expect((await call(app.url, 'DELETE', '/authentication', { token: accessToken })).status).toBe(200);
        const [refused] = (await listener.call('find', 'messages', {})) as [Record<string, unknown>];
        expect(refused).toMatchObject({ code: 401, name: 'NotAuthenticated' });
        await call(app.url, 'POST', '/messages', { token: writer.accessToken, body: { text: 'not heard' } });
        await pause(200);
        expect(listener.named('messages created').map((message) => message.text)).toEqual(['heard']);
        expect(listener.socket.connected).toBe(true);
      } finally {
        listener.close();
      }
    },
  );

  it("a password change through the API ends every other session of the user and keeps the caller's", async () => {
    const { email, user, accessToken } = await account();
    const elsewhere = await login(email);
    const changed = await call(app.url, 'PATCH', `/users/${user._id}`, {
      token: accessToken,
      body: { password: 'another long password', currentPassword: PASSWORD },
    });
    expect(changed.status).toBe(200);
    expect((await messages(accessToken)).status).toBe(200);
    expect((await messages(elsewhere.accessToken)).body).toMatchObject({ code: 401, data: { reason: 'revoked' } });
    expect((await refresh(elsewhere.refreshToken)).status).toBe(401);
  });

  it('keeps sessions where the store keeps them: on MongoDB with a TTL index on their expiry', async () => {
    const { accessToken } = await account();
    const stored = await app.composed.app.service('sessions').get(claimsOf(accessToken).sid);
    expect(stored.expiresAt).toBeInstanceOf(Date);
    expect(stored.expiresAt.getTime() - Date.now()).toBeGreaterThan(29 * 24 * 3_600_000);
    if (env.STORE !== 'mongo') return;
    const database = await app.composed.container.getAsync(Tokens.infrastructure.database);
    const indexes = await database.db.collection('sessions').indexes();
    expect(indexes).toContainEqual(expect.objectContaining({ key: { expiresAt: 1 }, expireAfterSeconds: 0 }));
  });

  it('never writes a token or a refresh token into the log', () => {
    expect(secrets.length).toBeGreaterThan(10);
    expect(app.log.length).toBeGreaterThan(0);
    const log = app.log.join('\n');
    for (const secret of secrets) {
      expect(log).not.toContain(secret);
      expect(log).not.toContain(secret.split('.').pop());
    }
  });
});
