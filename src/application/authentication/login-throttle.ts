import type { LoginAttemptKeys } from '../../ports/login-rate-limiter.port';

/** How failed logins slow a client down; shared by the in-memory and the Redis limiter. */
export interface LoginThrottleOptions {
  /**
   * Failed logins from one client address before its delays start, counting unknown accounts and
   * accounts this address never logged into. Default 20.
   */
  maxFailuresPerClient: number;
  /** Failed logins for one account from one client address before that pair's delays start. Default 5. */
  maxFailuresPerEmail: number;
  /** How long failures are remembered after the last one; also the longest delay. Default 15 minutes. */
  windowMs: number;
  /**
   * How long a successful login keeps its account-and-address pair out of the address's count
   * (renewed by each success). Default 30 days.
   */
  knownPairMs?: number;
}

export const DEFAULT_KNOWN_PAIR_MS = 30 * 24 * 3_600_000;

/** The first delay past an allowance; each further failure doubles it, up to the window. */
export const FIRST_DELAY_MS = 1_000;

/** A key an attempt is counted against, with the failures it allows before delays start. */
export interface ThrottleKey {
  key: string;
  allowance: number;
}

/**
 * What a login attempt counts against: the pair of account and client address, and the client
 * address (however many accounts it tries) unless this address has logged into this account
 * before. There is deliberately no count per account alone (an attacker's failures from one
 * address would lock the owner out from another), and a known pair skips the address's count
 * (others' failures from a shared address, a NAT or a proxy, would lock its users out).
 */
export function throttleKeys(keys: LoginAttemptKeys, options: LoginThrottleOptions, knownPair: boolean): ThrottleKey[] {
  const counted: ThrottleKey[] = [];
  const client = clientThrottleKey(keys, options);
  if (client && !knownPair) counted.push(client);
  if (keys.email !== undefined) counted.push({ key: accountKey(keys), allowance: options.maxFailuresPerEmail });
  return counted;
}

export function clientThrottleKey(keys: LoginAttemptKeys, options: LoginThrottleOptions): ThrottleKey | undefined {
  return keys.client === undefined
    ? undefined
    : { key: `client:${keys.client}`, allowance: options.maxFailuresPerClient };
}

/** The key a successful login clears: its own account-and-client pair (never the client's count). */
export function accountKey(keys: LoginAttemptKeys): string {
  return `account:${keys.client ?? 'unknown'}:${keys.email}`;
}

/** The key that remembers a successful login of this account from this address; none without both. */
export function knownPairKey(keys: LoginAttemptKeys): string | undefined {
  return keys.client === undefined || keys.email === undefined ? undefined : `known:${keys.client}:${keys.email}`;
}

/**
 * How long the next attempt must wait after `failures` failed logins on one key (the last one
 * just now): nothing within the allowance, then 1 s, 2 s, 4 s, ... up to the window.
 * The Redis limiter's script computes the same in Lua.
 */
export function delayAfterFailures(failures: number, allowance: number, windowMs: number): number {
  if (failures < allowance) return 0;
  return Math.min(windowMs, FIRST_DELAY_MS * 2 ** Math.min(failures - allowance, 30));
}
