import { PASSWORD, uniqueEmail } from '../../helpers/accounts';
import { startApp, type RunningApp } from '../../helpers/app-server';
import { call, isErrorBody } from '../../helpers/http';
import { redisUnavailableReason, startRedis, type RedisProcess } from '../../helpers/redis-server';
import { RecordingSocket } from '../../helpers/socket-clients';
import { untilRedisHolds } from './limiter-on-redis';

const skipReason = redisUnavailableReason();
if (skipReason) console.log(`sign-up limit tests with REDIS_URL skipped: ${skipReason}`);
const LIMITERS: Array<[string, boolean]> = skipReason
  ? [['memory', false]]
  : [
      ['memory', false],
      ['redis', true],
    ];

/** Three sign-ups per address a minute; the address is the one the (trusted) proxy forwards. */
const ENV = { STORE: 'memory', SIGNUP_MAX_PER_CLIENT: '3', SIGNUP_WINDOW_MS: '60000', TRUST_PROXY: '1' };

const signUp = (app: RunningApp, from: string) =>
  call(app.url, 'POST', '/users', {
    body: { email: uniqueEmail('signup'), password: PASSWORD },
    headers: { 'x-forwarded-for': from },
  });

describe.each(LIMITERS)('sign-up is limited per client address (%s limiter)', (_name, withRedis) => {
  let redis: RedisProcess | undefined;
  let first: RunningApp;
  let second: RunningApp;

  beforeAll(async () => {
    redis = withRedis ? await startRedis() : undefined;
    const env = { ...ENV, ...(redis ? { REDIS_URL: redis.url } : {}) };
    // Login limits stay off (startApp's default); the sign-up limit is turned on.
    first = await startApp(env, { signUpRateLimit: {} });
    second = await startApp(env, { signUpRateLimit: {} });
    if (redis) {
      for (const app of [first, second]) {
        await untilRedisHolds(
          redis.url,
          (attempt) => `hexa-services:requests:sign-up:192.0.2.${attempt}`,
          (attempt) => signUp(app, `192.0.2.${attempt}`),
        );
      }
    }
  }, 30_000);
  afterAll(async () => {
    await first?.close();
    await second?.close();
    await redis?.kill();
  });

  it('20 sign-ups sent at once from one address create 3 accounts; the rest are 429 with Retry-After', async () => {
    const responses = await Promise.all(Array.from({ length: 20 }, () => signUp(first, '203.0.113.10')));
    const created = responses.filter((response) => response.status === 201);
    const refused = responses.filter((response) => response.status === 429);
    console.log(`sign-up burst (${_name}): ${created.length} x 201, ${refused.length} x 429`);
    expect(created).toHaveLength(3);
    expect(refused).toHaveLength(17);
    for (const response of refused) {
      expect(isErrorBody(response.body, 429)).toBe(true);
      expect(response.body).toMatchObject({
        name: 'TooManyRequests',
        message: 'Too many sign-up requests from this address, try again later',
      });
      expect(response.body.data.retryAfter).toBeGreaterThan(0);
      expect(response.body.data.retryAfter).toBeLessThanOrEqual(60);
      expect(response.headers.get('retry-after')).toBe(String(response.body.data.retryAfter));
    }
    // Another address, and the same address's IPv6 neighbours elsewhere, are not affected.
    expect((await signUp(first, '203.0.113.11')).status).toBe(201);
  });

  it('counts per /64 for IPv6, over sockets as over REST, and never limits internal calls', async () => {
    for (let index = 1; index <= 3; index++) expect((await signUp(first, `2001:db8:5:6::${index}`)).status).toBe(201);
    expect((await signUp(first, '2001:db8:5:6:ffff::1')).status).toBe(429);
    const socket = new RecordingSocket(first.url, { extraHeaders: { 'x-forwarded-for': '2001:db8:5:6::77' } });
    try {
      await socket.connected();
      const [error] = (await socket.call(
        'create',
        'users',
        { email: uniqueEmail('socket'), password: PASSWORD },
        {},
      )) as [{ name: string }];
      expect(error).toMatchObject({ name: 'TooManyRequests' });
    } finally {
      socket.close();
    }
    const users = first.composed.app.service('users');
    for (let index = 0; index < 5; index++)
      await expect(users.create({ email: uniqueEmail('internal'), password: PASSWORD })).resolves.toBeDefined();
  });

  it(
    withRedis ? 'with REDIS_URL the instances share one count' : 'without REDIS_URL each instance counts on its own',
    async () => {
      for (let index = 0; index < 2; index++) expect((await signUp(first, '203.0.113.20')).status).toBe(201);
      expect((await signUp(second, '203.0.113.20')).status).toBe(201);
      expect((await signUp(second, '203.0.113.20')).status).toBe(withRedis ? 429 : 201);
      expect((await signUp(first, '203.0.113.20')).status).toBe(withRedis ? 429 : 201);
      expect((await signUp(first, '203.0.113.20')).status).toBe(429);
    },
  );
});

describe('the sign-up limit with the configured defaults', () => {
  it('allows 10 sign-ups per address in 15 minutes by default; `signUpRateLimit: false` turns it off', async () => {
    const app = await startApp({ STORE: 'memory', TRUST_PROXY: '1' }, { signUpRateLimit: {} });
    const unlimited = await startApp({ STORE: 'memory', TRUST_PROXY: '1' });
    try {
      const statuses: number[] = [];
      for (let index = 0; index < 11; index++) statuses.push((await signUp(app, '198.51.100.1')).status);
      expect(statuses).toEqual([...Array<number>(10).fill(201), 429]);
      const refused = await signUp(app, '198.51.100.1');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(14 * 60);
      for (let index = 0; index < 11; index++) expect((await signUp(unlimited, '198.51.100.1')).status).toBe(201);
    } finally {
      await app.close();
      await unlimited.close();
    }
  }, 30_000);
});
