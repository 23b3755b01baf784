import type { LoginAttemptKeys } from '../../ports/login-rate-limiter.port';

/** How failed logins slow a client down; shared by the in-memory and the Redis limiter. */
export interface LoginThrottleOptions {
  /** Failed logins from one client address, over all accounts, before its delays start. Default 20. */
  maxFailuresPerClient: number;
  /** Failed logins for one account from one client address before that pair's delays start. Default 5. */
  maxFailuresPerEmail: number;
  /** How long failures are remembered after the last one; also the longest delay. Default 15 minutes. */
  windowMs: number;
}

/** The first delay past an allowance; each further failure doubles it, up to the window. */
export const FIRST_DELAY_MS = 1_000;

/**
 * What a login attempt counts against: its client address (however many accounts it tries) and
 * the pair of account and client address. There is deliberately no count per account alone: an
 * attacker's failures from one address then never lock the account's owner out from another.
 */
export function throttleKeys(keys: LoginAttemptKeys, options: LoginThrottleOptions): Array<{ key: string; allowance: number }> {
  const counted: Array<{ key: string; allowance: number }> = [];
  if (keys.client !== undefined) counted.push({ key: `client:${keys.client}`, allowance: options.maxFailuresPerClient });
  if (keys.email !== undefined) counted.push({ key: accountKey(keys), allowance: options.maxFailuresPerEmail });
  return counted;
}

/** The key a successful login clears: its own account-and-client pair (never the client's count). */
export function accountKey(keys: LoginAttemptKeys): string {
  return `account:${keys.client ?? 'unknown'}:${keys.email}`;
}

/**
 * How long the next attempt must wait after `failures` failed logins on one key (the last one
 * just now): nothing within the allowance, then 1 s, 2 s, 4 s, ... up to the window.
 */
export function delayAfterFailures(failures: number, allowance: number, windowMs: number): number {
  if (failures < allowance) return 0;
  return Math.min(windowMs, FIRST_DELAY_MS * 2 ** Math.min(failures - allowance, 30));
}
