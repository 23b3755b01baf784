import type { LoginAttemptKeys, LoginRateLimiterPort } from '../../ports/login-rate-limiter.port';
import { accountKey, delayAfterFailures, throttleKeys, type LoginThrottleOptions } from './login-throttle';

/** Limits of failed logins (see login-throttle.ts), and how many keys this process keeps. */
export interface LoginRateLimitOptions extends LoginThrottleOptions {
  /** Keys kept at most; the oldest are dropped first, so memory stays bounded. Default 10 000. */
  maxEntries: number;
}

export const DEFAULT_LOGIN_RATE_LIMIT: Readonly<LoginRateLimitOptions> = Object.freeze({
  maxFailuresPerClient: 20,
  maxFailuresPerEmail: 5,
  windowMs: 15 * 60_000,
  maxEntries: 10_000,
});

export type { LoginAttemptKeys } from '../../ports/login-rate-limiter.port';

interface Failures {
  count: number;
  lastAt: number;
}

/**
 * In-memory login throttle for one process (browser-safe: no timers, no Node APIs): per client
 * address and per account-and-address pair, growing delays once an allowance is used up.
 * Several processes behind a balancer each count on their own: with `REDIS_URL` the composition
 * binds the Redis limiter behind the same port instead.
 */
export class LoginRateLimiter implements LoginRateLimiterPort {
  private readonly failures = new Map<string, Failures>();
  readonly options: Readonly<LoginRateLimitOptions>;

  constructor(options: Partial<LoginRateLimitOptions> = {}, private readonly now: () => number = Date.now) {
    this.options = { ...DEFAULT_LOGIN_RATE_LIMIT, ...options };
  }

  /** Milliseconds until the attempt may be made, 0 when it may be made now. */
  retryAfterMs(keys: LoginAttemptKeys): number {
    const time = this.now();
    let wait = 0;
    for (const { key, allowance } of throttleKeys(keys, this.options)) {
      const recorded = this.current(key, time);
      if (!recorded) continue;
      wait = Math.max(wait, recorded.lastAt + delayAfterFailures(recorded.count, allowance, this.options.windowMs) - time);
    }
    return wait;
  }

  recordFailure(keys: LoginAttemptKeys): void {
    const time = this.now();
    for (const { key } of throttleKeys(keys, this.options)) {
      const count = (this.current(key, time)?.count ?? 0) + 1;
      // Re-inserted, so the map's order is the order of last failures (the oldest are pruned first).
      this.failures.delete(key);
      this.failures.set(key, { count, lastAt: time });
    }
    this.prune(time);
  }

  /** A successful login clears its account-and-address pair; the address's own count stays. */
  recordSuccess(keys: LoginAttemptKeys): void {
    if (keys.email !== undefined) this.failures.delete(accountKey(keys));
  }

  /** The failures of a key, unless the window since its last one has passed. */
  private current(key: string, time: number): Failures | undefined {
    const recorded = this.failures.get(key);
    return recorded && recorded.lastAt + this.options.windowMs > time ? recorded : undefined;
  }

  private prune(time: number): void {
    if (this.failures.size <= this.options.maxEntries) return;
    for (const [key, recorded] of this.failures) if (recorded.lastAt + this.options.windowMs <= time) this.failures.delete(key);
    for (const key of this.failures.keys()) {
      if (this.failures.size <= this.options.maxEntries) break;
      this.failures.delete(key);
    }
  }
}
