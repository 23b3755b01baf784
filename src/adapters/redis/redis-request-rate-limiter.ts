import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { limitOf } from '../../application/authentication/request-rate-limiter';
import { copyWith } from '../../domain/plain-record';
import type { RequestLimit, RequestRateLimiterPort } from '../../ports/request-rate-limiter.port';

/**
 * Request limits (sign-up, password reset, ...) shared by every instance through Redis with
 * rate-limiter-flexible: a fixed window per action and client address is exactly its model, and
 * its `consume` counts atomically in Redis. While Redis is unreachable each instance counts in
 * memory instead (the library's insurance limiter), so requests neither hang nor go unlimited.
 */
export class RedisRequestRateLimiter implements RequestRateLimiterPort {
  private readonly limiters = new Map<string, RateLimiterAbstract>();

  constructor(client: Redis, limits: Readonly<Record<string, RequestLimit>>, keyPrefix = 'hexa-services:requests') {
    for (const action of Object.keys(limits)) {
      const { max, windowMs } = limitOf(limits, action);
      const options = {
        points: max,
        duration: Math.max(1, Math.ceil(windowMs / 1000)),
        keyPrefix: `${keyPrefix}:${action}`,
      };
      this.limiters.set(
        action,
        new RateLimiterRedis(
          copyWith(options, {
            storeClient: client,
            rejectIfRedisNotReady: true,
            insuranceLimiter: new RateLimiterMemory(options),
          }),
        ),
      );
    }
  }

  async consume(action: string, client: string): Promise<number> {
    const limiter = this.limiters.get(action);
    if (!limiter) throw new Error(`No request limit is configured for "${action}"`);
    try {
      await limiter.consume(client);
      return 0;
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) return Math.max(1, rejection.msBeforeNext);
      throw rejection;
    }
  }
}
