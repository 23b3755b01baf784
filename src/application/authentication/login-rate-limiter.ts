import type { LoginAttemptKeys, LoginRateLimiterPort } from '../../ports/login-rate-limiter.port';

/** Limits of failed logins; each counts failures in a fixed window that starts at the first one. */
export interface LoginRateLimitOptions {
  /** Failed logins allowed per client address per window. Default 20. */
  maxFailuresPerClient: number;
  /** Failed logins allowed per email (lower-cased, trimmed) per window. Default 5. */
  maxFailuresPerEmail: number;
  /** Window length in milliseconds. Default 15 minutes. */
  windowMs: number;
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

interface Window {
  failures: number;
  resetAt: number;
}

/**
 * In-memory brute-force limiter for one process (browser-safe: no timers, no Node APIs).
 * Several processes behind a balancer each count on their own: with `REDIS_URL` the composition
 * binds the Redis limiter behind the same port instead.
 */
export class LoginRateLimiter implements LoginRateLimiterPort {
  private readonly windows = new Map<string, Window>();
  readonly options: Readonly<LoginRateLimitOptions>;

  constructor(options: Partial<LoginRateLimitOptions> = {}, private readonly now: () => number = Date.now) {
    this.options = { ...DEFAULT_LOGIN_RATE_LIMIT, ...options };
  }

  /** Milliseconds until the attempt may be made, 0 when it may be made now. */
  retryAfterMs(keys: LoginAttemptKeys): number {
    const time = this.now();
    let wait = 0;
    for (const [key, max] of this.limits(keys)) {
      const window = this.windows.get(key);
      if (window && window.resetAt > time && window.failures >= max) wait = Math.max(wait, window.resetAt - time);
    }
    return wait;
  }

  recordFailure(keys: LoginAttemptKeys): void {
    const time = this.now();
    for (const [key] of this.limits(keys)) {
      const window = this.windows.get(key);
      if (window && window.resetAt > time) window.failures++;
      else {
        this.windows.delete(key);
        this.windows.set(key, { failures: 1, resetAt: time + this.options.windowMs });
      }
    }
    this.prune(time);
  }

  /** A successful login clears its email's count; the client's count stays (one's own account must not reset it). */
  recordSuccess(keys: LoginAttemptKeys): void {
    if (keys.email !== undefined) this.windows.delete(`email:${keys.email}`);
  }

  private limits(keys: LoginAttemptKeys): [string, number][] {
    const limits: [string, number][] = [];
    if (keys.client !== undefined) limits.push([`client:${keys.client}`, this.options.maxFailuresPerClient]);
    if (keys.email !== undefined) limits.push([`email:${keys.email}`, this.options.maxFailuresPerEmail]);
    return limits;
  }

  private prune(time: number): void {
    if (this.windows.size <= this.options.maxEntries) return;
    for (const [key, window] of this.windows) if (window.resetAt <= time) this.windows.delete(key);
    // Still too many: drop the oldest windows (a Map iterates in insertion order).
    for (const key of this.windows.keys()) {
      if (this.windows.size <= this.options.maxEntries) break;
      this.windows.delete(key);
    }
  }
}
