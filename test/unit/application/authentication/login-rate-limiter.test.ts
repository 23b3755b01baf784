import { LoginRateLimiter } from '../../../../src/application/authentication/login-rate-limiter';
import { delayAfterFailures } from '../../../../src/application/authentication/login-throttle';
import type {
  GrantedLoginAttempt,
  LoginAttemptKeys,
  LoginReservation,
} from '../../../../src/ports/login-rate-limiter.port';

/** The wait a reservation was refused with, 0 when it was granted (and so counted). */
const waitOf = (reservation: LoginReservation) => (reservation.granted ? 0 : reservation.retryAfterMs);

function granted(reservation: LoginReservation): GrantedLoginAttempt {
  if (!reservation.granted) throw new Error(`refused for ${reservation.retryAfterMs} ms`);
  return reservation;
}

describe('LoginRateLimiter', () => {
  let time: number;
  const limiter = (options = {}) =>
    new LoginRateLimiter({ maxFailuresPerClient: 4, maxFailuresPerEmail: 2, windowMs: 60_000, ...options }, () => time);
  /** A failed login: its reservation is kept. */
  const fail = (limits: LoginRateLimiter, keys: LoginAttemptKeys) => granted(limits.reserve(keys));
  beforeEach(() => {
    time = 50_000;
  });

  it('counts an attempt when it is reserved: a burst gets at most the allowance, the rest are refused', () => {
    const limits = limiter({ maxFailuresPerEmail: 5, maxFailuresPerClient: 1000 });
    const keys = { client: '6.6.6.6', email: 'owner@example.com' };
    const reservations = Array.from({ length: 60 }, () => limits.reserve(keys));
    expect(reservations.filter((reservation) => reservation.granted)).toHaveLength(5);
    expect(reservations.slice(5).every((reservation) => waitOf(reservation) === 1_000)).toBe(true);
  });

  it('delays an account from one address after its allowance, 1 s and doubling per failure', () => {
    const limits = limiter();
    const attacker = { client: '6.6.6.6', email: 'owner@example.com' };
    fail(limits, attacker);
    fail(limits, attacker);
    expect(waitOf(limits.reserve(attacker))).toBe(1_000);
    time += 1_000;
    fail(limits, attacker);
    expect(waitOf(limits.reserve(attacker))).toBe(2_000);
    time += 2_000;
    fail(limits, attacker);
    expect(waitOf(limits.reserve(attacker))).toBe(4_000);
  });

  it('never delays the owner logging in from another address', () => {
    const limits = limiter({ maxFailuresPerClient: 1000 });
    for (let attempt = 0; attempt < 10; attempt++) {
      fail(limits, { client: `7.7.7.${attempt}`, email: 'owner@example.com' });
      limits.reserve({ client: '6.6.6.6', email: 'owner@example.com' });
    }
    expect(waitOf(limits.reserve({ client: '6.6.6.6', email: 'owner@example.com' }))).toBeGreaterThan(0);
    expect(waitOf(limits.reserve({ client: '1.2.3.4', email: 'owner@example.com' }))).toBe(0);
  });

  it('delays one address spraying many accounts, whatever account it tries next', () => {
    const limits = limiter();
    for (const email of ['a', 'b', 'c', 'd']) fail(limits, { client: '1.2.3.4', email });
    expect(waitOf(limits.reserve({ client: '1.2.3.4', email: 'z' }))).toBe(1_000);
    expect(waitOf(limits.reserve({ client: '5.6.7.8', email: 'z' }))).toBe(0);
    expect(waitOf(limits.reserve({}))).toBe(0);
  });

  it('a success gives back what it charged the address and clears its pair', () => {
    const limits = limiter({ maxFailuresPerClient: 3, maxFailuresPerEmail: 3 });
    fail(limits, { client: 'c', email: 'a' });
    fail(limits, { client: 'c', email: 'a' });
    limits.succeeded(fail(limits, { client: 'c', email: 'a' }));
    // Two failures are left on the address (not three), none on the pair.
    fail(limits, { client: 'c', email: 'b' });
    expect(waitOf(limits.reserve({ client: 'c', email: 'z' }))).toBe(1_000);
    for (let attempt = 0; attempt < 2; attempt++) fail(limits, { client: 'c', email: 'a' });
  });

  it(
    "an address's failures never lock out an account that logged in from " +
      'it before; that pair keeps its own allowance',
    () => {
      const limits = limiter();
      const known = { client: '10.0.0.1', email: 'known@example.com' };
      limits.succeeded(fail(limits, known));
      for (let attempt = 0; attempt < 4; attempt++)
        fail(limits, { client: '10.0.0.1', email: `random${attempt}@example.com` });
      expect(waitOf(limits.reserve({ client: '10.0.0.1', email: 'first-time@example.com' }))).toBe(1_000);
      limits.succeeded(granted(limits.reserve(known)));
      // The known pair's own failures are limited, and they do not charge the address.
      fail(limits, known);
      fail(limits, known);
      expect(waitOf(limits.reserve(known))).toBe(1_000);
      time += 1_000;
      expect(waitOf(limits.reserve({ client: '10.0.0.1', email: 'first-time@example.com' }))).toBe(0);
    },
  );

  it('forgets a known pair after knownPairMs, and keeps at most maxEntries of them', () => {
    const limits = limiter({ knownPairMs: 120_000, windowMs: 600_000 });
    const ann = { client: 'c', email: 'ann' };
    limits.succeeded(granted(limits.reserve(ann)));
    for (let attempt = 0; attempt < 4; attempt++) fail(limits, { client: 'c', email: `x${attempt}` });
    limits.release(granted(limits.reserve(ann)));
    time += 120_000;
    fail(limits, { client: 'c', email: 'x4' });
    expect(waitOf(limits.reserve(ann))).toBe(2_000);
    const bounded = limiter({ maxEntries: 2 });
    for (const email of ['a', 'b', 'c']) bounded.succeeded(granted(bounded.reserve({ client: 'k', email })));
    for (let attempt = 0; attempt < 4; attempt++) fail(bounded, { client: 'k', email: `x${attempt}` });
    expect(bounded.reserve({ client: 'k', email: 'a' }).granted).toBe(false);
    expect(bounded.reserve({ client: 'k', email: 'c' }).granted).toBe(true);
  });

  it('release gives an attempt without a verdict back', () => {
    const limits = limiter({ maxFailuresPerEmail: 1 });
    const keys = { client: 'c', email: 'a' };
    limits.release(granted(limits.reserve(keys)));
    limits.release(granted(limits.reserve(keys)));
    fail(limits, keys);
    expect(waitOf(limits.reserve(keys))).toBe(1_000);
  });

  it('forgets failures a window after the last one', () => {
    const limits = limiter({ windowMs: 10_000 });
    const keys = { client: 'c', email: 'a' };
    fail(limits, keys);
    time += 9_000;
    fail(limits, keys);
    expect(waitOf(limits.reserve(keys))).toBe(1_000);
    time += 9_999;
    fail(limits, keys);
    expect(waitOf(limits.reserve(keys))).toBe(2_000);
    time += 10_000;
    fail(limits, keys);
    expect(waitOf(limits.reserve(keys))).toBe(0);
  });

  it('keeps at most maxEntries keys, expired ones first, then the oldest', () => {
    const limits = limiter({ maxEntries: 3, maxFailuresPerEmail: 1 });
    fail(limits, { email: 'old' });
    time += 120_000;
    fail(limits, { email: 'a' });
    fail(limits, { email: 'b' });
    fail(limits, { email: 'c' });
    expect(waitOf(limits.reserve({ email: 'a' }))).toBeGreaterThan(0);
    fail(limits, { email: 'd' });
    expect(waitOf(limits.reserve({ email: 'a' }))).toBe(0);
    for (const email of ['c', 'd']) expect(waitOf(limits.reserve({ email }))).toBeGreaterThan(0);
  });
});

describe('delayAfterFailures', () => {
  it('is nothing within the allowance, then doubles from 1 s up to the window', () => {
    expect([0, 1, 2, 3, 4, 5, 30, 60].map((failures) => delayAfterFailures(failures, 2, 60_000))).toEqual([
      0, 0, 1_000, 2_000, 4_000, 8_000, 60_000, 60_000,
    ]);
  });
});
