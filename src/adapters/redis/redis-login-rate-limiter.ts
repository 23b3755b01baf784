import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { LoginAttemptKeys, LoginRateLimiterPort } from '../../ports/login-rate-limiter.port';

export interface RedisLoginRateLimitOptions {
  maxFailuresPerClient: number;
  maxFailuresPerEmail: number;
  windowMs: number;
  /** Prefix of the Redis keys. Default 'hexa-services:login'. */
  keyPrefix?: string;
}

/**
 * Failed-login counts shared by every instance through Redis (rate-limiter-flexible), so N
 * instances allow the same number of attempts as one. Each count is a window that starts at the
 * first failure. While Redis is unreachable each instance counts in memory instead (the
 * library's insurance limiter), so logins neither hang nor go unlimited.
 */
export class RedisLoginRateLimiter implements LoginRateLimiterPort {
  private readonly byClient: RateLimiterAbstract;
  private readonly byEmail: RateLimiterAbstract;

  constructor(client: Redis, private readonly options: RedisLoginRateLimitOptions) {
    const prefix = options.keyPrefix ?? 'hexa-services:login';
    const duration = Math.max(1, Math.ceil(options.windowMs / 1000));
    const limiter = (name: string, points: number) =>
      new RateLimiterRedis({
        storeClient: client,
        rejectIfRedisNotReady: true,
        points,
        duration,
        keyPrefix: `${prefix}:${name}`,
        insuranceLimiter: new RateLimiterMemory({ points, duration, keyPrefix: `${prefix}:${name}` }),
      });
    this.byClient = limiter('client', options.maxFailuresPerClient);
    this.byEmail = limiter('email', options.maxFailuresPerEmail);
  }

  async retryAfterMs(keys: LoginAttemptKeys): Promise<number> {
    const waits = await Promise.all(this.limits(keys).map(async ([limiter, key, max]) => {
      const state = await limiter.get(key);
      return state && state.consumedPoints >= max ? state.msBeforeNext : 0;
    }));
    return Math.max(0, ...waits);
  }

  async recordFailure(keys: LoginAttemptKeys): Promise<void> {
    await Promise.all(this.limits(keys).map(([limiter, key]) => limiter.penalty(key, 1)));
  }

  async recordSuccess(keys: LoginAttemptKeys): Promise<void> {
    if (keys.email !== undefined) await this.byEmail.delete(keys.email);
  }

  private limits(keys: LoginAttemptKeys): [RateLimiterAbstract, string, number][] {
    const limits: [RateLimiterAbstract, string, number][] = [];
    if (keys.client !== undefined) limits.push([this.byClient, keys.client, this.options.maxFailuresPerClient]);
    if (keys.email !== undefined) limits.push([this.byEmail, keys.email, this.options.maxFailuresPerEmail]);
    return limits;
  }
}
