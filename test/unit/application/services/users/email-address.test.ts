import {
  assertDistinctEmailAddress,
  normalizeEmailAddress,
} from '../../../../../src/application/services/users/email-address';

describe('e-mail addresses: one spelling, no look-alikes (issue 25, finding 11)', () => {
  it('normalizes with NFKC, then trims and lower-cases', () => {
    expect(normalizeEmailAddress('  Karen@Example.COM ')).toBe('karen@example.com');
    expect(normalizeEmailAddress('ｋａｒｅｎ@ｅｘａｍｐｌｅ.com')).toBe('karen@example.com');
    expect(normalizeEmailAddress('ﬁona@example.com')).toBe('fiona@example.com');
    expect(normalizeEmailAddress(42)).toBe(42);
  });

  it.each([
    ['U+200B zero width space', 'ka\u200bren@example.com'],
    ['U+00AD soft hyphen', 'ka\u00adren@example.com'],
    ['U+2060 word joiner', 'ka\u2060ren@example.com'],
    ['U+202E right-to-left override', 'ka\u202eren@example.com'],
    ['U+FEFF byte order mark', 'ka\ufeffren@example.com'],
    ['U+200D zero width joiner', 'ka\u200dren@example.com'],
    ['U+3164 Hangul filler', 'ka\u3164ren@example.com'],
    ['U+FE0F variation selector', 'ka\ufe0fren@example.com'],
    ['a control character', 'ka\u0007ren@example.com'],
    ['a space inside', 'ka ren@example.com'],
  ])('refuses %s', (_label, address) => {
    expect(() => assertDistinctEmailAddress(normalizeEmailAddress(address))).toThrow(
      expect.objectContaining({
        name: 'BadRequest',
        errors: { email: ['email must not contain invisible, formatting or control characters'] },
      }),
    );
  });

  it('refuses quoted and escaped local parts', () => {
    for (const address of ['"karen"@example.com', '"ka ren"@example.com', 'ka\\ren@example.com']) {
      expect(() => assertDistinctEmailAddress(normalizeEmailAddress(address))).toThrow(
        expect.objectContaining({ name: 'BadRequest' }),
      );
    }
  });

  it('refuses what is no longer one valid address after normalization', () => {
    // U+FE6B small commercial at: a valid local-part character that NFKC turns into a second '@'.
    expect(() => assertDistinctEmailAddress(normalizeEmailAddress('a\ufe6bb@example.com'))).toThrow(
      expect.objectContaining({ errors: { email: ['email must be an email'] } }),
    );
  });

  it('accepts ordinary and international addresses', () => {
    for (const address of ['karen@example.com', 'jürgen.müller@example.de', "o'brien+tag@example.co.uk"]) {
      expect(() => assertDistinctEmailAddress(normalizeEmailAddress(address))).not.toThrow();
    }
  });
});
