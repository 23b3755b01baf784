import { limitPerClient, REQUEST_RATE_LIMITER } from '../../../../src/application/authentication/limit-per-client.hook';
import { MemoryRequestRateLimiter } from '../../../../src/application/authentication/request-rate-limiter';
import type { HookContext } from '../../../../src/application/hooks/hook-context';

describe('MemoryRequestRateLimiter', () => {
  let time: number;
  beforeEach(() => {
    time = 1_000_000;
  });
  const limiter = (maxEntries?: number) =>
    new MemoryRequestRateLimiter(
      { 'sign-up': { max: 2, windowMs: 60_000 }, 'password-reset': { max: 1, windowMs: 10_000 } },
      maxEntries,
      () => time,
    );

  it('allows max requests per action and address in a fixed window, then answers the time left', () => {
    const limits = limiter();
    expect(limits.consume('sign-up', 'a')).toBe(0);
    time += 10_000;
    expect(limits.consume('sign-up', 'a')).toBe(0);
    expect(limits.consume('sign-up', 'a')).toBe(50_000);
    expect(limits.consume('sign-up', 'b')).toBe(0);
    // Each action has its own limit and count.
    expect(limits.consume('password-reset', 'a')).toBe(0);
    expect(limits.consume('password-reset', 'a')).toBe(10_000);
    time += 50_000;
    expect(limits.consume('sign-up', 'a')).toBe(0);
  });

  it('refuses an action nobody configured (a programming error), even one named like an Object method', () => {
    expect(() => limiter().consume('sign-in', 'a')).toThrow('No request limit is configured for "sign-in"');
    expect(() => limiter().consume('toString', 'a')).toThrow('No request limit is configured for "toString"');
  });

  it('keeps at most maxEntries windows', () => {
    const limits = limiter(2);
    for (const client of ['a', 'b', 'c']) limits.consume('sign-up', client);
    limits.consume('sign-up', 'c');
    expect(limits.consume('sign-up', 'c')).toBeGreaterThan(0);
    // The oldest window was dropped: that address starts again.
    expect(limits.consume('sign-up', 'a')).toBe(0);
  });
});

describe('limitPerClient', () => {
  const context = (params: Record<string, unknown>, limiter?: MemoryRequestRateLimiter) =>
    ({
      app: { get: (name: string) => (name === REQUEST_RATE_LIMITER ? limiter : undefined) },
      params,
    }) as unknown as HookContext;

  it('refuses external calls past the limit with 429 and data.retryAfter, per address group', async () => {
    const limiter = new MemoryRequestRateLimiter({ 'sign-up': { max: 1, windowMs: 90_500 } });
    const hook = limitPerClient('sign-up');
    await hook(context({ provider: 'rest', ip: '2001:db8::1' }, limiter));
    await expect(hook(context({ provider: 'socketio', ip: '2001:db8::2' }, limiter))).rejects.toMatchObject({
      name: 'TooManyRequests',
      code: 429,
      message: 'Too many sign-up requests from this address, try again later',
      data: { retryAfter: 91 },
    });
    await hook(context({ provider: 'rest', ip: '2001:db8:0:1::1' }, limiter));
  });

  it('never limits internal calls, nor anything when the app has no limiter (limits turned off)', async () => {
    const limiter = new MemoryRequestRateLimiter({ 'sign-up': { max: 1, windowMs: 60_000 } });
    const hook = limitPerClient('sign-up');
    for (let call = 0; call < 3; call++) await hook(context({ ip: '1.2.3.4' }, limiter));
    for (let call = 0; call < 3; call++) await hook(context({ provider: 'rest', ip: '1.2.3.4' }));
  });
});
