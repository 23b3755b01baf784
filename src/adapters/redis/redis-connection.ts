import { Redis, type RedisOptions } from 'ioredis';

/**
 * A Redis client that never queues commands while disconnected (they fail at once, so callers
 * fall back instead of waiting) and reconnects by itself within a second of Redis coming back.
 */
export function createRedisClient(url: string, options: RedisOptions = {}): Redis {
  return new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2_000,
    retryStrategy: (attempt) => Math.min(100 * attempt, 1_000),
    ...options,
  });
}

/** Closes a client whatever its state (quit needs a connection; disconnect does not). */
export async function closeRedisClient(client: Redis): Promise<void> {
  // Closing twice would arm ioredis' force-close timer again (it holds the process for connectTimeout).
  if (client.status === 'end') return;
  if (client.status === 'ready') {
    await client.quit().catch(() => client.disconnect());
  } else {
    client.disconnect();
  }
}
