import type { Redis } from 'ioredis';
import { LoginRateLimiter } from '../../application/authentication/login-rate-limiter';
import {
  accountKey,
  clientThrottleKey,
  DEFAULT_KNOWN_PAIR_MS,
  FIRST_DELAY_MS,
  knownPairKey,
  type LoginThrottleOptions,
} from '../../application/authentication/login-throttle';
import type {
  GrantedLoginAttempt,
  LoginAttemptKeys,
  LoginRateLimiterPort,
  LoginReservation,
} from '../../ports/login-rate-limiter.port';
import { RESERVE_LOGIN_SCRIPT, SETTLE_LOGIN_SCRIPT } from './login-limit-scripts';

export interface RedisLoginRateLimitOptions extends LoginThrottleOptions {
  /** Prefix of the Redis keys. Default 'hexa-services:login'. */
  keyPrefix?: string;
}

type Script = (...args: Array<string | number>) => Promise<unknown>;

/**
 * The login throttle of login-throttle.ts shared by every instance through Redis: each attempt
 * is reserved by one Lua script (login-limit-scripts.ts) that checks and counts it atomically,
 * so concurrent attempts on any number of instances check at most the allowance of passwords.
 * A Lua script rather than rate-limiter-flexible: the growing delays, the skipped address count
 * of a known pair and the check over two keys must be one atomic step. While Redis is unreachable
 * each instance counts in memory instead, so logins neither hang nor go unlimited.
 */
export class RedisLoginRateLimiter implements LoginRateLimiterPort {
  private readonly prefix: string;
  private readonly reserveScript: Script;
  private readonly settleScript: Script;
  private readonly fallback: LoginRateLimiter;
  /** Attempts granted by the fallback are settled there. */
  private readonly grantedInMemory = new WeakSet<GrantedLoginAttempt>();

  constructor(
    client: Redis,
    private readonly options: RedisLoginRateLimitOptions,
  ) {
    this.prefix = options.keyPrefix ?? 'hexa-services:login';
    client.defineCommand('hexaReserveLogin', { numberOfKeys: 3, lua: RESERVE_LOGIN_SCRIPT });
    client.defineCommand('hexaSettleLogin', { numberOfKeys: 3, lua: SETTLE_LOGIN_SCRIPT });
    const commands = client as unknown as Record<'hexaReserveLogin' | 'hexaSettleLogin', Script>;
    this.reserveScript = commands.hexaReserveLogin.bind(client);
    this.settleScript = commands.hexaSettleLogin.bind(client);
    this.fallback = new LoginRateLimiter(options);
  }

  async reserve(keys: LoginAttemptKeys): Promise<LoginReservation> {
    const clientKey = clientThrottleKey(keys, this.options);
    let answer: unknown;
    try {
      answer = await this.reserveScript(
        this.key(clientKey?.key),
        this.key(keys.email === undefined ? undefined : accountKey(keys)),
        this.key(knownPairKey(keys)),
        this.options.windowMs,
        FIRST_DELAY_MS,
        this.options.maxFailuresPerClient,
        this.options.maxFailuresPerEmail,
      );
    } catch {
      const reservation = this.fallback.reserve(keys);
      if (reservation.granted) this.grantedInMemory.add(reservation);
      return reservation;
    }
    const [granted, waitMs, chargedClient] = answer as [number, number, number];
    return granted === 1
      ? { granted: true, keys, chargedClient: chargedClient === 1 }
      : { granted: false, retryAfterMs: Number(waitMs) };
  }

  succeeded(attempt: GrantedLoginAttempt): Promise<void> {
    return this.settle(attempt, 'succeeded');
  }

  release(attempt: GrantedLoginAttempt): Promise<void> {
    return this.settle(attempt, 'released');
  }

  private async settle(attempt: GrantedLoginAttempt, outcome: 'succeeded' | 'released'): Promise<void> {
    if (this.grantedInMemory.has(attempt)) {
      this.fallback[outcome === 'succeeded' ? 'succeeded' : 'release'](attempt);
      return;
    }
    const { keys } = attempt;
    const clientKey = attempt.chargedClient ? clientThrottleKey(keys, this.options)?.key : undefined;
    const known = outcome === 'succeeded' ? knownPairKey(keys) : undefined;
    // Lost when Redis is away: the counts then lapse with the window, as failures would.
    await this.settleScript(
      this.key(clientKey),
      this.key(keys.email === undefined ? undefined : accountKey(keys)),
      this.key(known),
      outcome,
      this.options.knownPairMs ?? DEFAULT_KNOWN_PAIR_MS,
    ).catch(() => undefined);
  }

  private key(name: string | undefined): string {
    return name === undefined ? '' : `${this.prefix}:${name}`;
  }
}
