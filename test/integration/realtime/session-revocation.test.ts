import { Redis } from 'ioredis';
import { startMongoTestServer, type MongoTestServer } from '../../helpers/mongo-test-server';
import { PASSWORD, uniqueEmail } from '../../helpers/accounts';
import { startApp, type RunningApp } from '../../helpers/app-server';
import { call } from '../../helpers/http';
import { describeWithRedis, startRedis, type RedisProcess } from '../../helpers/redis-server';
import { pause, RecordingSocket, waitFor } from '../../helpers/socket-clients';

/** Two instances behind one database and one Redis: a session ended on one is refused on the other within a second. */
describeWithRedis('ended sessions across instances (Redis)', () => {
  let redis: RedisProcess;
  let database: MongoTestServer;
  let first: RunningApp;
  let second: RunningApp;
  let monitor: Redis;
  let feed: Redis;
  const traffic: string[] = [];
  const secrets: string[] = [];

  beforeAll(async () => {
    redis = await startRedis();
    monitor = new Redis(redis.url, { retryStrategy: () => null });
    monitor.on('error', () => undefined);
    feed = await monitor.monitor();
    feed.on('monitor', (_time: string, args: string[]) => traffic.push(args.join(' ')));
    database = await startMongoTestServer();
    const env = { STORE: 'mongo', MONGODB_URL: database.url, REDIS_URL: redis.url };
    // Password reset requests counted across instances (the other limits stay off, as in every suite).
    first = await startApp(env, { passwordResetRateLimit: {} });
    second = await startApp(env, { passwordResetRateLimit: {} });
    // Each instance reads the event log and subscribes to the ended sessions.
    await waitFor(
      () =>
        traffic.filter((line) => line.startsWith('subscribe')).length >= 2 &&
        traffic.filter((line) => line.startsWith('xread')).length >= 2,
      'both instances to subscribe',
      10_000,
    );
  }, 60_000);
  afterAll(async () => {
    await feed?.quit().catch(() => feed.disconnect());
    await monitor?.quit().catch(() => monitor.disconnect());
    await first?.close();
    await second?.close();
    await redis?.kill();
    await database?.close();
  });

  async function account(base: string) {
    const email = uniqueEmail('instances');
    expect((await call(base, 'POST', '/users', { body: { email, password: PASSWORD } })).status).toBe(201);
    const login = await call(base, 'POST', '/authentication', {
      body: { strategy: 'local', email, password: PASSWORD },
    });
    secrets.push(login.body.accessToken, login.body.refreshToken);
    return {
      email,
      user: login.body.user,
      accessToken: login.body.accessToken as string,
      refreshToken: login.body.refreshToken as string,
    };
  }

  /** Milliseconds until `base` refuses `token` (polled), failing past `limitMs`. */
  async function refusedWithin(base: string, token: string, limitMs: number): Promise<number> {
    const start = Date.now();
    for (;;) {
      const response = await call(base, 'GET', '/messages', { token });
      if (response.status === 401) return Date.now() - start;
      if (Date.now() - start > limitMs) throw new Error(`still accepted after ${limitMs} ms`);
      await pause(10);
    }
  }

  it(
    'a logout on one instance is refused on the other in under a ' + 'second, though it had the session in memory',
    async () => {
      const { accessToken } = await account(first.url);
      // The second instance has seen the session active (and keeps it in memory).
      expect((await call(second.url, 'GET', '/messages', { token: accessToken })).status).toBe(200);
      expect((await call(first.url, 'DELETE', '/authentication', { token: accessToken })).status).toBe(200);
      expect(await refusedWithin(second.url, accessToken, 1_000)).toBeLessThan(1_000);
    },
  );

  it(
    'a reused refresh token on one instance ends the session on the other, ' +
      'whose socket becomes anonymous and stops hearing events',
    async () => {
      const victim = await account(first.url);
      const listener = new RecordingSocket(second.url);
      try {
        await listener.connected();
        const [error] = await listener.call(
          'create',
          'authentication',
          { strategy: 'jwt', accessToken: victim.accessToken },
          {},
        );
        expect(error).toBeNull();
        const writer = await account(second.url);
        await call(second.url, 'POST', '/messages', { token: writer.accessToken, body: { text: 'before' } });
        await waitFor(() => listener.named('messages created').length === 1, 'the event before the theft');
        const rotated = await call(first.url, 'POST', '/authentication', {
          body: { strategy: 'refresh', refreshToken: victim.refreshToken },
        });
        secrets.push(rotated.body.accessToken, rotated.body.refreshToken);
        expect(
          (
            await call(first.url, 'POST', '/authentication', {
              body: { strategy: 'refresh', refreshToken: victim.refreshToken },
            })
          ).status,
        ).toBe(401);
        expect(await refusedWithin(second.url, rotated.body.accessToken, 1_000)).toBeLessThan(1_000);
        const [refused] = (await listener.call('find', 'messages', {})) as [Record<string, unknown>];
        expect(refused).toMatchObject({ code: 401 });
        await call(second.url, 'POST', '/messages', { token: writer.accessToken, body: { text: 'after' } });
        await pause(300);
        expect(listener.named('messages created').map((message) => message.text)).toEqual(['before']);
      } finally {
        listener.close();
      }
    },
  );

  it(
    'a password change on one instance ends the other sessions on the ' + 'other, and a removal of the user ends all',
    async () => {
      const { email, user, accessToken } = await account(first.url);
      const login = await call(second.url, 'POST', '/authentication', {
        body: { strategy: 'local', email, password: PASSWORD },
      });
      secrets.push(login.body.accessToken, login.body.refreshToken);
      expect((await call(second.url, 'GET', '/messages', { token: login.body.accessToken })).status).toBe(200);
      const changed = await call(first.url, 'PATCH', `/users/${user._id}`, {
        token: accessToken,
        body: { password: 'another long password', currentPassword: PASSWORD },
      });
      expect(changed.status).toBe(200);
      expect(await refusedWithin(second.url, login.body.accessToken, 1_000)).toBeLessThan(1_000);
      expect((await call(second.url, 'GET', '/messages', { token: accessToken })).status).toBe(200);
      expect((await call(second.url, 'DELETE', `/users/${user._id}`, { token: accessToken })).status).toBe(200);
      expect(await refusedWithin(first.url, accessToken, 1_000)).toBeLessThan(1_000);
    },
  );

  it(
    "a password reset request is counted in Redis under the address's " + 'hash, and answers alike on both instances',
    async () => {
      const { email } = await account(first.url);
      const answers = [
        await call(first.url, 'POST', '/password-resets', { body: { email } }),
        await call(second.url, 'POST', '/password-resets', { body: { email: 'nobody-here@example.com' } }),
      ];
      expect(answers.map((answer) => answer.status)).toEqual([201, 201]);
      expect(answers[0].text).toBe(answers[1].text);
      await pause(200);
      const counted = traffic.filter((line) => line.includes('password-reset-address'));
      expect(counted.length).toBeGreaterThanOrEqual(2);
      expect(counted.join('\n')).not.toContain('@');
      expect(traffic.join('\n')).not.toContain('nobody-here@example.com');
    },
  );

  it('the Redis traffic carries session ids only: no access, refresh token or hash', () => {
    const ended = traffic.filter((line) => line.startsWith('publish hexa-services:sessions-ended'));
    expect(ended.length).toBeGreaterThanOrEqual(2);
    const all = traffic.join('\n');
    for (const secret of secrets) {
      expect(all).not.toContain(secret);
      expect(all).not.toContain(secret.split('.').pop());
    }
    expect(all).not.toMatch(/refreshTokenHash|rotatedTokenHashes/);
    // 64 hex digits are the hash of a token, except in the request counters' keys (an address's hash).
    expect(traffic.filter((line) => !line.includes('hexa-services:requests:')).join('\n')).not.toMatch(/[0-9a-f]{64}/);
  });
});
