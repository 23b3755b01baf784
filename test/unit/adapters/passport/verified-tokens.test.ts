import { VerifiedTokens } from '../../../../src/adapters/passport/verified-tokens';

describe('VerifiedTokens', () => {
  it('answers until the second the token expires, then forgets it', () => {
    const tokens = new VerifiedTokens<string>();
    tokens.remember('a.b.c', 1_000, 'payload');
    expect(tokens.get('a.b.c', 999)).toBe('payload');
    expect(tokens.get('a.b.c', 1_000)).toBeUndefined();
    expect(tokens.get('a.b.c', 999)).toBeUndefined();
  });

  it('makes room by dropping the oldest entry when full', () => {
    const tokens = new VerifiedTokens<number>(2);
    tokens.remember('one', 100, 1);
    tokens.remember('two', 100, 2);
    tokens.remember('three', 100, 3);
    expect([tokens.get('one', 0), tokens.get('two', 0), tokens.get('three', 0)]).toEqual([undefined, 2, 3]);
  });

  it('keeps no token longer than its limit, none without a finite expiry, and nothing with no capacity', () => {
    const tokens = new VerifiedTokens<number>(10, 8);
    tokens.remember('123456789', 100, 1);
    tokens.remember('short', Number.NaN, 2);
    expect([tokens.get('123456789', 0), tokens.get('short', 0)]).toEqual([undefined, undefined]);
    const none = new VerifiedTokens<number>(0);
    none.remember('token', 100, 3);
    expect(none.get('token', 0)).toBeUndefined();
  });
});
