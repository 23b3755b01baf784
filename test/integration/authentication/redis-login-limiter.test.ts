import { createRedisClient, closeRedisClient, RedisLoginRateLimiter } from '../../../src/adapters/redis';
import type { GrantedLoginAttempt, LoginReservation } from '../../../src/ports/login-rate-limiter.port';
import { describeWithRedis, startRedis, type RedisProcess } from '../../helpers/redis-server';

const OPTIONS = { maxFailuresPerClient: 4, maxFailuresPerEmail: 3, windowMs: 60_000 };

function granted(reservation: LoginReservation): GrantedLoginAttempt {
  if (!reservation.granted) throw new Error(`refused for ${reservation.retryAfterMs} ms`);
  return reservation;
}

/** The limiter as two instances see it: each its own Redis client, one Redis. */
describeWithRedis('RedisLoginRateLimiter', () => {
  let redis: RedisProcess;
  const clients: ReturnType<typeof createRedisClient>[] = [];
  let first: RedisLoginRateLimiter;
  let second: RedisLoginRateLimiter;

  const connect = async () => {
    const client = createRedisClient(redis.url);
    client.on('error', () => undefined);
    clients.push(client);
    if (client.status !== 'ready') await new Promise((resolve) => client.once('ready', resolve));
    return client;
  };

  beforeAll(async () => {
    redis = await startRedis();
    first = new RedisLoginRateLimiter(await connect(), OPTIONS);
    second = new RedisLoginRateLimiter(await connect(), OPTIONS);
  }, 30_000);
  afterAll(async () => {
    for (const client of clients) await closeRedisClient(client);
    await redis?.kill();
  });

  it('grants a burst spread over two instances the allowance exactly, then the growing delays', async () => {
    const keys = { client: '6.6.6.6', email: 'owner@example.com' };
    const reservations = await Promise.all(
      Array.from({ length: 60 }, (_, index) => (index % 2 === 0 ? first : second).reserve(keys)),
    );
    expect(reservations.filter((reservation) => reservation.granted)).toHaveLength(3);
    for (const reservation of reservations)
      if (!reservation.granted) expect(reservation.retryAfterMs).toBeGreaterThan(900);
    for (const reservation of reservations)
      if (!reservation.granted) expect(reservation.retryAfterMs).toBeLessThanOrEqual(1_000);
  });

  it(
    'a success refunds the address, clears the pair, and keeps the known ' +
      'pair out of the address count on every instance',
    async () => {
      const known = { client: '10.0.0.1', email: 'known@example.com' };
      await first.succeeded(granted(await first.reserve(known)));
      for (let attempt = 0; attempt < 4; attempt++)
        granted(await second.reserve({ client: '10.0.0.1', email: `random${attempt}@example.com` }));
      const newcomer = await first.reserve({ client: '10.0.0.1', email: 'newcomer@example.com' });
      expect(newcomer).toMatchObject({ granted: false });
      const again = granted(await second.reserve(known));
      expect(again.chargedClient).toBe(false);
      await first.succeeded(again);
      // The pair's own allowance still applies.
      for (let attempt = 0; attempt < 3; attempt++) granted(await first.reserve(known));
      expect(await second.reserve(known)).toMatchObject({ granted: false });
    },
  );

  it('release gives an attempt without a verdict back', async () => {
    const keys = { client: '10.0.0.2', email: 'a@example.com' };
    for (let attempt = 0; attempt < 5; attempt++) await first.release(granted(await second.reserve(keys)));
    for (let attempt = 0; attempt < 3; attempt++) granted(await first.reserve(keys));
    expect(await first.reserve(keys)).toMatchObject({ granted: false });
  });

  it('counts in memory while Redis is down, without waiting for it', async () => {
    await redis.kill();
    const keys = { client: '10.0.0.3', email: 'b@example.com' };
    const started = Date.now();
    for (let attempt = 0; attempt < 3; attempt++) granted(await first.reserve(keys));
    expect(await first.reserve(keys)).toMatchObject({ granted: false });
    await first.succeeded(granted(await first.reserve({ client: '10.0.0.3', email: 'c@example.com' })));
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
