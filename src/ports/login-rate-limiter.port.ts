/** What one login attempt is counted against. */
export interface LoginAttemptKeys {
  client?: string;
  email?: string;
}

/** An attempt that may go on: it is already counted as a failure until it is settled otherwise. */
export interface GrantedLoginAttempt {
  readonly granted: true;
  readonly keys: LoginAttemptKeys;
  /** Whether the address's own count was charged (false when this address logged into this account before). */
  readonly chargedClient: boolean;
}

/** An attempt refused before any credential is checked. */
export interface RefusedLoginAttempt {
  readonly granted: false;
  /** Milliseconds until an attempt may be made. */
  readonly retryAfterMs: number;
}

export type LoginReservation = GrantedLoginAttempt | RefusedLoginAttempt;

/**
 * Counts logins before their credentials are checked, so concurrent attempts cannot all pass a
 * check made before any of them failed. One process counts in memory; instances behind a
 * balancer share a store (Redis), so N instances do not allow N times the attempts.
 */
export interface LoginRateLimiterPort {
  /**
   * Atomically: refuses the attempt while one of its keys is in its delay, else counts it as a
   * failure on each key (a wrong password then needs nothing more).
   */
  reserve(keys: LoginAttemptKeys): LoginReservation | Promise<LoginReservation>;
  /**
   * The attempt logged in: gives back what it charged the address, clears the account-and-address
   * pair's failures and remembers the pair, so this address's other failures never lock it out.
   */
  succeeded(attempt: GrantedLoginAttempt): void | Promise<void>;
  /** The attempt ended without a verdict on its credentials (e.g. the store was down): gives its counts back. */
  release(attempt: GrantedLoginAttempt): void | Promise<void>;
}
