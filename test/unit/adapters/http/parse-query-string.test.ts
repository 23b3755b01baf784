import fc from 'fast-check';
import qs from 'qs';
import { parseQueryString } from '../../../../src/adapters/http/parse-query-string';
import {
  QUERY_PARSE_OPTIONS,
  QUERY_STRING_LIMITS,
  QUERY_STRINGIFY_OPTIONS,
} from '../../../../src/application/query/query-string-options';
import { BadRequest } from '../../../../src/domain/errors';

const repeat = (count: number, make: (i: number) => string) =>
  Array.from({ length: count }, (_, i) => make(i)).join('&');

describe('parseQueryString', () => {
  it('parses the Feathers query syntax into ordinary objects of strings', () => {
    const query = parseQueryString('a=1&b[$gt]=2&$sort[n]=-1&$select[]=x&$or[0][c]=3&$or[1][d][$in][0]=4&e=5&e=6');
    expect(query).toEqual({
      a: '1',
      b: { $gt: '2' },
      $sort: { n: '-1' },
      $select: ['x'],
      $or: [{ c: '3' }, { d: { $in: ['4'] } }],
      e: ['5', '6'],
    });
    expect(Object.getPrototypeOf(query)).toBe(Object.prototype);
    expect(Object.getPrototypeOf(query.b)).toBe(Object.prototype);
    expect(parseQueryString('')).toEqual({});
  });

  it('keeps Object.prototype names other than the forbidden ones as plain keys', () => {
    expect(parseQueryString('toString=1&hasOwnProperty=2')).toEqual({ toString: '1', hasOwnProperty: '2' });
  });

  it.each([
    'constructor=1',
    'a[constructor]=1',
    'prototype=1',
    'a[b][prototype]=1',
    '__proto__[x]=1',
    'a[__proto__]=1',
    '%5F%5Fproto%5F%5F=1',
    'a%5B__proto__%5D=1',
    '__proto__=1',
  ])('refuses forbidden keys: %s', (raw) => {
    expect(() => parseQueryString(raw)).toThrow(BadRequest);
  });

  it('allows __proto__ in values', () => {
    expect(parseQueryString('text=__proto__')).toEqual({ text: '__proto__' });
  });

  it('throws instead of truncating at every limit', () => {
    const { arrayLimit, depth, parameterLimit } = QUERY_STRING_LIMITS;
    expect(parseQueryString(repeat(arrayLimit, () => 'a[]=1')).a).toHaveLength(arrayLimit);
    expect(() => parseQueryString(repeat(arrayLimit + 1, () => 'a[]=1'))).toThrow(/Array limit/);
    expect(() => parseQueryString(repeat(arrayLimit + 1, () => 'a=1'))).toThrow(/Array limit/);
    expect(() => parseQueryString(`a[${arrayLimit}]=1`)).toThrow(/Array limit/);
    expect(() => parseQueryString(`a${'[b]'.repeat(depth)}=1`)).not.toThrow();
    expect(() => parseQueryString(`a${'[b]'.repeat(depth + 1)}=1`)).toThrow(/depth/);
    expect(() => parseQueryString(repeat(parameterLimit + 1, (i) => `k${i}=1`))).toThrow(/Parameter limit/);
    expect(() => parseQueryString(repeat(parameterLimit, (i) => `k${i}=1`))).not.toThrow();
  });

  it('errors are BadRequests (400)', () => {
    try {
      parseQueryString(repeat(5000, () => 'a[]=1'));
      throw new Error('expected a throw');
    } catch (error: any) {
      expect(error).toBeInstanceOf(BadRequest);
      expect(error.code).toBe(400);
    }
  });

  it('the shared options are frozen and carry the limits', () => {
    expect(Object.isFrozen(QUERY_PARSE_OPTIONS)).toBe(true);
    expect(QUERY_PARSE_OPTIONS).toMatchObject({
      ...QUERY_STRING_LIMITS,
      strictDepth: true,
      throwOnLimitExceeded: true,
      allowPrototypes: false,
    });
  });

  it('round-trips what the REST client stringifies with the shared options', () => {
    const key = fc
      .stringMatching(/^[a-z$][a-z0-9_.$ -]{0,8}$/)
      .filter((k) => !['constructor', 'prototype', '__proto__'].includes(k));
    const leaf = fc.string({ maxLength: 12 });
    const value = fc.oneof(
      leaf,
      fc.array(leaf, { minLength: 1, maxLength: 5 }),
      fc.dictionary(key, leaf, { minKeys: 1, maxKeys: 3 }),
      fc.dictionary(key, fc.array(leaf, { minLength: 1, maxLength: 3 }), { minKeys: 1, maxKeys: 2 }),
    );
    fc.assert(
      fc.property(fc.dictionary(key, value, { minKeys: 1, maxKeys: 5 }), (query) => {
        expect(parseQueryString(qs.stringify(query, QUERY_STRINGIFY_OPTIONS))).toEqual(query);
      }),
      { numRuns: 300 },
    );
  });

  it('round-trips nested $or / $and queries', () => {
    const query = {
      $or: [{ a: { $in: ['1', '2'] } }, { $and: [{ b: { $gt: '3' } }, { c: 'x y&z=' }] }],
      $sort: { a: '-1' },
    };
    expect(parseQueryString(qs.stringify(query, QUERY_STRINGIFY_OPTIONS))).toEqual(query);
  });
});

describe('parseQueryString without brackets, escapes or repeated keys (parsed without qs)', () => {
  const viaQs = (raw: string): unknown => JSON.parse(JSON.stringify(qs.parse(raw, QUERY_PARSE_OPTIONS)));

  it('gives what qs gives, for any string of these characters', () => {
    const raw = fc
      .array(fc.constantFrom('a', 'b', '$', '_', '.', '=', '&', '?', ' ', 'é', '[', ']', '%', '+', '2', 'F'), {
        maxLength: 24,
      })
      .map((chars) => chars.join(''));
    fc.assert(
      fc.property(raw, (text) => {
        let expected: unknown;
        try {
          expected = viaQs(text);
        } catch {
          expect(() => parseQueryString(text)).toThrow(BadRequest);
          return;
        }
        expect(parseQueryString(text)).toEqual(expected);
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps values with = in them, empty values and the limits', () => {
    expect(parseQueryString('$limit=10&text=a=b&flag&empty=')).toEqual({
      $limit: '10',
      text: 'a=b',
      flag: '',
      empty: '',
    });
    expect(() => parseQueryString(repeat(QUERY_STRING_LIMITS.parameterLimit + 1, (i) => `k${i}=1`))).toThrow(
      /Parameter limit/,
    );
    expect(() => parseQueryString('a=1&constructor=2')).toThrow(BadRequest);
    expect(parseQueryString('a=1&a=2')).toEqual({ a: ['1', '2'] });
  });
});
