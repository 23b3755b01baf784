/** What one login attempt is counted against. */
export interface LoginAttemptKeys {
  client?: string;
  email?: string;
}

/**
 * Counts failed logins. One process counts in memory; instances behind a balancer share a
 * store (Redis), so N instances do not allow N times the attempts.
 */
export interface LoginRateLimiterPort {
  /** Milliseconds until the attempt may be made, 0 when it may be made now. */
  retryAfterMs(keys: LoginAttemptKeys): number | Promise<number>;
  recordFailure(keys: LoginAttemptKeys): void | Promise<void>;
  /** A successful login clears its account-and-client count (not the client's). */
  recordSuccess(keys: LoginAttemptKeys): void | Promise<void>;
}
