import { LoginRateLimiter } from '../../../../src/application/authentication/login-rate-limiter';

describe('LoginRateLimiter', () => {
  let time: number;
  const limiter = (options = {}) => new LoginRateLimiter({ maxFailuresPerClient: 3, maxFailuresPerEmail: 2, windowMs: 1000, ...options }, () => time);
  beforeEach(() => { time = 50_000; });

  it('blocks an email after its failures until the window ends', () => {
    const limits = limiter();
    limits.recordFailure({ email: 'a' });
    expect(limits.retryAfterMs({ email: 'a' })).toBe(0);
    time += 100;
    limits.recordFailure({ email: 'a' });
    expect(limits.retryAfterMs({ email: 'a' })).toBe(900);
    expect(limits.retryAfterMs({ email: 'b' })).toBe(0);
    time += 900;
    expect(limits.retryAfterMs({ email: 'a' })).toBe(0);
    // A new window starts with the next failure.
    limits.recordFailure({ email: 'a' });
    expect(limits.retryAfterMs({ email: 'a' })).toBe(0);
  });

  it('blocks a client across emails, and takes the longest wait of both keys', () => {
    const limits = limiter();
    for (const email of ['a', 'b', 'c']) limits.recordFailure({ client: '1.2.3.4', email });
    expect(limits.retryAfterMs({ client: '1.2.3.4', email: 'z' })).toBe(1000);
    expect(limits.retryAfterMs({ client: '5.6.7.8', email: 'z' })).toBe(0);
    expect(limits.retryAfterMs({})).toBe(0);
  });

  it('clears the email on success but keeps the client count', () => {
    const limits = limiter();
    for (let attempt = 0; attempt < 3; attempt++) limits.recordFailure({ client: 'c', email: 'a' });
    limits.recordSuccess({ client: 'c', email: 'a' });
    expect(limits.retryAfterMs({ email: 'a' })).toBe(0);
    expect(limits.retryAfterMs({ client: 'c' })).toBe(1000);
  });

  it('keeps at most maxEntries keys, expired ones first, then the oldest', () => {
    const limits = limiter({ maxEntries: 3, maxFailuresPerEmail: 1 });
    limits.recordFailure({ email: 'old' });
    time += 2000;
    limits.recordFailure({ email: 'a' });
    limits.recordFailure({ email: 'b' });
    limits.recordFailure({ email: 'c' });
    expect(limits.retryAfterMs({ email: 'a' })).toBeGreaterThan(0);
    limits.recordFailure({ email: 'd' });
    expect(limits.retryAfterMs({ email: 'a' })).toBe(0);
    for (const email of ['b', 'c', 'd']) expect(limits.retryAfterMs({ email })).toBeGreaterThan(0);
  });
});
