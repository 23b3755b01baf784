import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { accountKey, delayAfterFailures, throttleKeys, type LoginThrottleOptions } from '../../application/authentication/login-throttle';
import type { LoginAttemptKeys, LoginRateLimiterPort } from '../../ports/login-rate-limiter.port';

export interface RedisLoginRateLimitOptions extends LoginThrottleOptions {
  /** Prefix of the Redis keys. Default 'hexa-services:login'. */
  keyPrefix?: string;
}

/** More failures than anyone counts: the counting limiter never refuses, it only counts. */
const UNLIMITED = 1_000_000;

/**
 * The login throttle of login-throttle.ts shared by every instance through Redis
 * (rate-limiter-flexible), so N instances allow the same attempts as one: one limiter counts
 * failures per key (remembered for the window after the last one), another holds the growing
 * delay as a block. While Redis is unreachable each instance counts in memory instead (the
 * library's insurance limiters), so logins neither hang nor go unlimited.
 */
export class RedisLoginRateLimiter implements LoginRateLimiterPort {
  private readonly counts: RateLimiterAbstract;
  private readonly delays: RateLimiterAbstract;
  private readonly windowSeconds: number;

  constructor(client: Redis, private readonly options: RedisLoginRateLimitOptions) {
    const prefix = options.keyPrefix ?? 'hexa-services:login';
    this.windowSeconds = Math.max(1, Math.ceil(options.windowMs / 1000));
    const limiter = (name: string, points: number) =>
      new RateLimiterRedis({
        storeClient: client,
        rejectIfRedisNotReady: true,
        points,
        duration: this.windowSeconds,
        keyPrefix: `${prefix}:${name}`,
        insuranceLimiter: new RateLimiterMemory({ points, duration: this.windowSeconds, keyPrefix: `${prefix}:${name}` }),
      });
    this.counts = limiter('failures', UNLIMITED);
    this.delays = limiter('delay', 1);
  }

  async retryAfterMs(keys: LoginAttemptKeys): Promise<number> {
    const waits = await Promise.all(throttleKeys(keys, this.options).map(async ({ key }) => {
      const state = await this.delays.get(key);
      return state && state.consumedPoints > 1 ? state.msBeforeNext : 0;
    }));
    return Math.max(0, ...waits);
  }

  async recordFailure(keys: LoginAttemptKeys): Promise<void> {
    await Promise.all(throttleKeys(keys, this.options).map(async ({ key, allowance }) => {
      const { consumedPoints } = await this.counts.penalty(key, 1);
      // Remembered for the window after the latest failure, not after the first.
      await this.counts.set(key, consumedPoints, this.windowSeconds);
      const delay = delayAfterFailures(consumedPoints, allowance, this.options.windowMs);
      if (delay > 0) await this.delays.block(key, Math.ceil(delay / 1000));
    }));
  }

  /** A successful login clears its account-and-address pair; the address's own count stays. */
  async recordSuccess(keys: LoginAttemptKeys): Promise<void> {
    if (keys.email === undefined) return;
    const key = accountKey(keys);
    await Promise.all([this.counts.delete(key), this.delays.delete(key)]);
  }
}
