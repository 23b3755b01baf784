import type { LoginRateLimiterPort } from '../ports/login-rate-limiter.port';
import type { RequestRateLimiterPort } from '../ports/request-rate-limiter.port';
import type { AppConfig } from './app-config';
import { requestLimits, type AuthenticationOptions } from './modules/authentication.module';

export interface RateLimiters {
  login?: LoginRateLimiterPort;
  requests?: RequestRateLimiterPort;
  /** Closes the Redis client the limiters share, if there is one. */
  close(): Promise<void>;
}

/**
 * With `REDIS_URL`, failed logins and the per-address request limits (sign-up) count across
 * instances through one Redis client; otherwise the options' own limiters, or none (each process
 * counts in memory). Limits turned off (`rateLimit: false`) or given their own limiter are not shared.
 */
export function sharedRateLimiters(config: AppConfig, options: AuthenticationOptions = {}): RateLimiters {
  const own: RateLimiters = {
    login: options.rateLimiter,
    requests: options.requestRateLimiter,
    close: () => Promise.resolve(),
  };
  const shareLogins = options.rateLimit !== false && !options.rateLimiter;
  const limits = options.requestRateLimiter ? undefined : requestLimits(config, options);
  if (!config.redisUrl || (!shareLogins && !limits)) return own;
  // ioredis and rate-limiter-flexible load only for an application with `REDIS_URL`.
  const { createRedisClient, closeRedisClient, RedisLoginRateLimiter, RedisRequestRateLimiter } =
    require('../adapters/redis') as typeof import('../adapters/redis');
  const client = createRedisClient(config.redisUrl);
  client.on('error', () => undefined); // the limiters fall back to memory; the event bus logs outages
  return {
    login: !shareLogins
      ? own.login
      : new RedisLoginRateLimiter(client, {
          maxFailuresPerEmail: config.auth.maxLoginFailuresPerEmail,
          maxFailuresPerClient: config.auth.maxLoginFailuresPerClient,
          windowMs: config.auth.loginWindowMs,
          ...(options.rateLimit || {}),
        }),
    requests: limits ? new RedisRequestRateLimiter(client, limits) : own.requests,
    close: () => closeRedisClient(client),
  };
}
