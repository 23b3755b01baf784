import type { AuthenticationOptions } from '../../../src/composition/modules/authentication.module';
import { PASSWORD, uniqueEmail } from '../../helpers/accounts';
import { startApp, type RunningApp } from '../../helpers/app-server';
import { call } from '../../helpers/http';
import { redisUnavailableReason, startRedis, type RedisProcess } from '../../helpers/redis-server';
import { RecordingSocket } from '../../helpers/socket-clients';
import { untilRedisHolds } from './limiter-on-redis';
import { countPasswordChecks } from './password-checks';

const skipReason = redisUnavailableReason();
if (skipReason) console.log(`login burst tests with REDIS_URL skipped: ${skipReason}`);
const LIMITERS: Array<[string, boolean]> = skipReason
  ? [['memory', false]]
  : [
      ['memory', false],
      ['redis', true],
    ];

const ALLOWANCE = 5;
/**
 * Each password check takes at least this long (a costly hash): the whole burst is in flight before
 * the first failure.
 */
const HOLD_MS = 300;
const LIMITS: AuthenticationOptions = {
  rateLimit: { maxFailuresPerEmail: ALLOWANCE, maxFailuresPerClient: 1000, windowMs: 60_000 },
};

const login = (app: RunningApp, email: string, password: string, headers: Record<string, string> = {}) =>
  call(app.url, 'POST', '/authentication', { body: { strategy: 'local', email, password }, headers });

async function signUp(app: RunningApp, email = uniqueEmail('burst')): Promise<string> {
  const created = await call(app.url, 'POST', '/users', { body: { email, password: PASSWORD } });
  if (created.status !== 201) throw new Error(`sign-up failed: ${created.status} ${created.text}`);
  return email;
}

/** A successful login (which charges nothing) repeated until Redis remembers it: the limiter then counts in Redis. */
async function untilLimiterUsesRedis(app: RunningApp, redis: RedisProcess): Promise<void> {
  const email = await signUp(app);
  await untilRedisHolds(
    redis.url,
    () => `hexa-services:login:known:127.0.0.1:${email}`,
    () => login(app, email, PASSWORD),
  );
}

describe.each(LIMITERS)('concurrent logins cannot pass the limit (%s limiter)', (_name, withRedis) => {
  let redis: RedisProcess | undefined;
  let app: RunningApp;
  let checks: ReturnType<typeof countPasswordChecks>;

  beforeAll(async () => {
    redis = withRedis ? await startRedis() : undefined;
    app = await startApp({ STORE: 'memory', ...(redis ? { REDIS_URL: redis.url } : {}) }, LIMITS);
    if (redis) await untilLimiterUsesRedis(app, redis);
    checks = countPasswordChecks(app.composed, HOLD_MS);
  }, 30_000);
  afterAll(async () => {
    await app?.close();
    await redis?.kill();
  });

  it(
    '60 REST logins for one account sent at once from one address check at ' +
      `most ${ALLOWANCE} passwords; the rest are 429 with Retry-After`,
    async () => {
      const email = await signUp(app);
      checks.reset();
      // 59 wrong passwords and the right one last, all in flight together.
      const passwords = [...Array.from({ length: 59 }, (_, index) => `wrong password ${index}`), PASSWORD];
      const started = Date.now();
      const responses = await Promise.all(passwords.map((password) => login(app, email, password)));
      const statuses = responses.map((response) => response.status);
      const refused = responses.filter((response) => response.status === 429);
      console.log(
        `REST burst (${_name}): ${checks.count} passwords checked, ${refused.length} x ` +
          `429, ${statuses.filter((status) => status === 401).length} x 401, in ${Date.now() - started} ms`,
      );
      expect(checks.count).toBeLessThanOrEqual(ALLOWANCE);
      expect(statuses.filter((status) => status === 401 || status === 201)).toHaveLength(checks.count);
      expect(refused.length).toBeGreaterThanOrEqual(60 - ALLOWANCE);
      for (const response of refused) {
        expect(response.body).toMatchObject({ name: 'TooManyRequests', code: 429 });
        expect(response.headers.get('retry-after')).toBe(String(response.body.data.retryAfter));
      }
      // The right password, sent with the burst, was refused before its check, not let through.
      expect(statuses[59]).toBe(429);
    },
    30_000,
  );

  it(
    '40 socket logins for one account sent at once (one socket ' + `each) check at most ${ALLOWANCE} passwords`,
    async () => {
      const email = await signUp(app);
      const sockets = Array.from({ length: 40 }, () => new RecordingSocket(app.url));
      try {
        await Promise.all(sockets.map((socket) => socket.connected()));
        checks.reset();
        const acks = await Promise.all(
          sockets.map((socket, index) =>
            socket.call(
              'create',
              'authentication',
              { strategy: 'local', email, password: index === 39 ? PASSWORD : `wrong ${index}` },
              {},
            ),
          ),
        );
        const errors = acks.map(([error]) => error as { name?: string; data?: { retryAfter?: number } } | null);
        const refused = errors.filter((error) => error?.name === 'TooManyRequests');
        console.log(`socket burst (${_name}): ${checks.count} passwords checked, ${refused.length} x TooManyRequests`);
        expect(checks.count).toBeLessThanOrEqual(ALLOWANCE);
        expect(refused.length).toBeGreaterThanOrEqual(40 - ALLOWANCE);
        for (const error of refused) expect(error?.data?.retryAfter).toBeGreaterThan(0);
        expect(errors[39]?.name).toBe('TooManyRequests');
      } finally {
        for (const socket of sockets) socket.close();
      }
    },
    30_000,
  );

  it('a correct login gives its reservation back: logins of the owner in a row are never refused', async () => {
    const email = await signUp(app);
    for (let attempt = 0; attempt < ALLOWANCE * 2; attempt++)
      expect((await login(app, email, PASSWORD)).status).toBe(201);
  }, 30_000);
});

describe.each(LIMITERS)(
  'an address cannot lock out the accounts that log in from it (%s limiter)',
  (_name, withRedis) => {
    let redis: RedisProcess | undefined;
    let app: RunningApp;

    beforeAll(async () => {
      redis = withRedis ? await startRedis() : undefined;
      // The configured defaults: 20 failures per address, 5 per account and address.
      app = await startApp({ STORE: 'memory', ...(redis ? { REDIS_URL: redis.url } : {}) }, { rateLimit: {} });
      if (redis) await untilLimiterUsesRedis(app, redis);
    }, 30_000);
    afterAll(async () => {
      await app?.close();
      await redis?.kill();
    });

    it(
      'after 25 failed logins for random e-mails from one address (sent at ' +
        'once), a user who logged in from it before still logs in',
      async () => {
        const regular = await signUp(app);
        const newcomer = await signUp(app);
        expect((await login(app, regular, PASSWORD)).status).toBe(201);
        const checks = countPasswordChecks(app.composed, HOLD_MS);
        const spray = await Promise.all(
          Array.from({ length: 25 }, (_, index) => login(app, uniqueEmail(`random${index}`), 'guess')),
        );
        const statuses = spray.map((response) => response.status);
        console.log(
          `spray (${_name}): ${statuses.filter((status) => status === 401).length} x ` +
            `401, ${statuses.filter((status) => status === 429).length} x 429, ${checks.count} passwords checked`,
        );
        expect(checks.count).toBeLessThanOrEqual(20);
        expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(5);
        // The address is in its delay for accounts it never logged into...
        expect((await login(app, newcomer, PASSWORD)).status).toBe(429);
        // ...but not for the account that logged in from it before, again and again.
        for (let attempt = 0; attempt < 3; attempt++) expect((await login(app, regular, PASSWORD)).status).toBe(201);
        // That pair keeps its own allowance of failures, then its own delays.
        for (let attempt = 0; attempt < 5; attempt++) expect((await login(app, regular, 'wrong')).status).toBe(401);
        expect((await login(app, regular, PASSWORD)).status).toBe(429);
      },
      30_000,
    );
  },
);
