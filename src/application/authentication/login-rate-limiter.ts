import { copyWith } from '../../domain/plain-record';
import type {
  GrantedLoginAttempt,
  LoginAttemptKeys,
  LoginRateLimiterPort,
  LoginReservation,
} from '../../ports/login-rate-limiter.port';
import {
  accountKey,
  clientThrottleKey,
  DEFAULT_KNOWN_PAIR_MS,
  delayAfterFailures,
  knownPairKey,
  throttleKeys,
  type LoginThrottleOptions,
} from './login-throttle';

/** Limits of failed logins (see login-throttle.ts), and how many keys this process keeps. */
export interface LoginRateLimitOptions extends LoginThrottleOptions {
  /**
   * Keys kept at most, failures and known pairs each; the oldest are dropped first, so memory stays bounded. Default 10
   * 000.
   */
  maxEntries: number;
}

export const DEFAULT_LOGIN_RATE_LIMIT: Readonly<LoginRateLimitOptions> = Object.freeze({
  maxFailuresPerClient: 20,
  maxFailuresPerEmail: 5,
  windowMs: 15 * 60_000,
  knownPairMs: DEFAULT_KNOWN_PAIR_MS,
  maxEntries: 10_000,
});

export type { LoginAttemptKeys } from '../../ports/login-rate-limiter.port';

interface Failures {
  count: number;
  lastAt: number;
}

/**
 * In-memory login throttle for one process (browser-safe: no timers, no Node APIs): per client
 * address and per account-and-address pair, growing delays once an allowance is used up. An
 * attempt is counted when it is reserved, before its password is checked; JavaScript runs the
 * check and the count without interruption, so concurrent attempts cannot all pass.
 * Several processes behind a balancer each count on their own: with `REDIS_URL` the composition
 * binds the Redis limiter behind the same port instead.
 */
export class LoginRateLimiter implements LoginRateLimiterPort {
  private readonly failures = new Map<string, Failures>();
  /** Account-and-address pairs that logged in, with when that stops counting. */
  private readonly knownPairs = new Map<string, number>();
  readonly options: Readonly<LoginRateLimitOptions>;

  constructor(
    options: Partial<LoginRateLimitOptions> = {},
    private readonly now: () => number = Date.now,
  ) {
    this.options = copyWith(DEFAULT_LOGIN_RATE_LIMIT, options);
  }

  reserve(keys: LoginAttemptKeys): LoginReservation {
    const time = this.now();
    const known = this.isKnown(keys, time);
    const counted = throttleKeys(keys, this.options, known);
    let wait = 0;
    for (const { key, allowance } of counted) {
      const recorded = this.current(key, time);
      if (recorded)
        wait = Math.max(
          wait,
          recorded.lastAt + delayAfterFailures(recorded.count, allowance, this.options.windowMs) - time,
        );
    }
    if (wait > 0) return { granted: false, retryAfterMs: wait };
    for (const { key } of counted) {
      const count = (this.current(key, time)?.count ?? 0) + 1;
      // Re-inserted, so the map's order is the order of last attempts (the oldest are pruned first).
      this.failures.delete(key);
      this.failures.set(key, { count, lastAt: time });
    }
    prune(this.failures, this.options.maxEntries, (recorded) => recorded.lastAt + this.options.windowMs <= time);
    return { granted: true, keys, chargedClient: keys.client !== undefined && !known };
  }

  succeeded(attempt: GrantedLoginAttempt): void {
    const { keys } = attempt;
    if (attempt.chargedClient) this.refund(clientThrottleKey(keys, this.options)?.key);
    if (keys.email !== undefined) this.failures.delete(accountKey(keys));
    const known = knownPairKey(keys);
    if (known === undefined) return;
    const time = this.now();
    this.knownPairs.delete(known);
    this.knownPairs.set(known, time + (this.options.knownPairMs ?? DEFAULT_KNOWN_PAIR_MS));
    prune(this.knownPairs, this.options.maxEntries, (until) => until <= time);
  }

  release(attempt: GrantedLoginAttempt): void {
    if (attempt.chargedClient) this.refund(clientThrottleKey(attempt.keys, this.options)?.key);
    if (attempt.keys.email !== undefined) this.refund(accountKey(attempt.keys));
  }

  private refund(key: string | undefined): void {
    const recorded = key === undefined ? undefined : this.failures.get(key);
    if (!recorded) return;
    if (recorded.count <= 1) this.failures.delete(key!);
    else recorded.count -= 1;
  }

  private isKnown(keys: LoginAttemptKeys, time: number): boolean {
    const known = knownPairKey(keys);
    const until = known === undefined ? undefined : this.knownPairs.get(known);
    return until !== undefined && until > time;
  }

  /** The failures of a key, unless the window since its last one has passed. */
  private current(key: string, time: number): Failures | undefined {
    const recorded = this.failures.get(key);
    return recorded && recorded.lastAt + this.options.windowMs > time ? recorded : undefined;
  }
}

/** Keeps a map at most `maxEntries` long: expired entries go first, then the oldest inserted. */
function prune<V>(map: Map<string, V>, maxEntries: number, expired: (value: V) => boolean): void {
  if (map.size <= maxEntries) return;
  for (const [key, value] of map) if (expired(value)) map.delete(key);
  for (const key of map.keys()) {
    if (map.size <= maxEntries) break;
    map.delete(key);
  }
}
