import { LoginRateLimiter } from '../../../../src/application/authentication/login-rate-limiter';
import { delayAfterFailures } from '../../../../src/application/authentication/login-throttle';

describe('LoginRateLimiter', () => {
  let time: number;
  const limiter = (options = {}) => new LoginRateLimiter({ maxFailuresPerClient: 4, maxFailuresPerEmail: 2, windowMs: 60_000, ...options }, () => time);
  beforeEach(() => { time = 50_000; });

  it('delays an account from one address after its allowance, 1 s and doubling per failure', () => {
    const limits = limiter();
    const attacker = { client: '6.6.6.6', email: 'owner@example.com' };
    limits.recordFailure(attacker);
    expect(limits.retryAfterMs(attacker)).toBe(0);
    limits.recordFailure(attacker);
    expect(limits.retryAfterMs(attacker)).toBe(1_000);
    time += 1_000;
    expect(limits.retryAfterMs(attacker)).toBe(0);
    limits.recordFailure(attacker);
    expect(limits.retryAfterMs(attacker)).toBe(2_000);
    time += 2_000;
    limits.recordFailure(attacker);
    expect(limits.retryAfterMs(attacker)).toBe(4_000);
  });

  it('never delays the owner logging in from another address', () => {
    const limits = limiter();
    for (let attempt = 0; attempt < 10; attempt++) {
      limits.recordFailure({ client: `6.6.6.${attempt}`, email: 'owner@example.com' });
      limits.recordFailure({ client: '6.6.6.6', email: 'owner@example.com' });
    }
    expect(limits.retryAfterMs({ client: '6.6.6.6', email: 'owner@example.com' })).toBeGreaterThan(0);
    expect(limits.retryAfterMs({ client: '1.2.3.4', email: 'owner@example.com' })).toBe(0);
  });

  it('delays one address spraying many accounts, whatever account it tries next', () => {
    const limits = limiter();
    for (const email of ['a', 'b', 'c', 'd']) limits.recordFailure({ client: '1.2.3.4', email });
    expect(limits.retryAfterMs({ client: '1.2.3.4', email: 'z' })).toBe(1_000);
    expect(limits.retryAfterMs({ client: '5.6.7.8', email: 'z' })).toBe(0);
    expect(limits.retryAfterMs({})).toBe(0);
  });

  it('clears the account-and-address pair on success but keeps the address count', () => {
    const limits = limiter({ maxFailuresPerClient: 3 });
    for (let attempt = 0; attempt < 3; attempt++) limits.recordFailure({ client: 'c', email: 'a' });
    limits.recordSuccess({ client: 'c', email: 'a' });
    expect(limits.retryAfterMs({ client: 'x', email: 'a' })).toBe(0);
    expect(limits.retryAfterMs({ client: 'c' })).toBe(1_000);
  });

  it('forgets failures a window after the last one', () => {
    const limits = limiter({ windowMs: 10_000 });
    const keys = { client: 'c', email: 'a' };
    limits.recordFailure(keys);
    time += 9_000;
    limits.recordFailure(keys);
    expect(limits.retryAfterMs(keys)).toBe(1_000);
    time += 9_999;
    limits.recordFailure(keys);
    expect(limits.retryAfterMs(keys)).toBe(2_000);
    time += 10_000;
    limits.recordFailure(keys);
    expect(limits.retryAfterMs(keys)).toBe(0);
  });

  it('keeps at most maxEntries keys, expired ones first, then the oldest', () => {
    const limits = limiter({ maxEntries: 3, maxFailuresPerEmail: 1 });
    limits.recordFailure({ email: 'old' });
    time += 120_000;
    limits.recordFailure({ email: 'a' });
    limits.recordFailure({ email: 'b' });
    limits.recordFailure({ email: 'c' });
    expect(limits.retryAfterMs({ email: 'a' })).toBeGreaterThan(0);
    limits.recordFailure({ email: 'd' });
    expect(limits.retryAfterMs({ email: 'a' })).toBe(0);
    for (const email of ['b', 'c', 'd']) expect(limits.retryAfterMs({ email })).toBeGreaterThan(0);
  });
});

describe('delayAfterFailures', () => {
  it('is nothing within the allowance, then doubles from 1 s up to the window', () => {
    expect([0, 1, 2, 3, 4, 5, 30, 60].map((failures) => delayAfterFailures(failures, 2, 60_000))).toEqual([0, 0, 1_000, 2_000, 4_000, 8_000, 60_000, 60_000]);
  });
});
