import { Redis } from 'ioredis';

/**
 * Repeats `act` until Redis holds the key it should write (at most 50 times, 100 ms apart): an
 * instance counts in memory until its Redis client is ready, so a test of the shared count starts
 * once the count is shared. `act(attempt)` may use the attempt number to write a fresh key.
 */
export async function untilRedisHolds(
  redisUrl: string,
  keyOf: (attempt: number) => string,
  act: (attempt: number) => Promise<unknown>,
): Promise<void> {
  const client = new Redis(redisUrl, { retryStrategy: () => null, lazyConnect: true });
  client.on('error', () => undefined);
  try {
    await client.connect();
    for (let attempt = 0; attempt < 50; attempt++) {
      await act(attempt);
      if ((await client.exists(keyOf(attempt))) === 1) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('the limiter never wrote to Redis');
  } finally {
    await client.quit().catch(() => client.disconnect());
  }
}
