import { exceedsDepth, MAX_BODY_DEPTH, parseJsonBody } from '../../../../src/adapters/http/parse-json-body';
import { BadRequest } from '../../../../src/domain/errors';

describe('parseJsonBody', () => {
  it('parses objects and arrays', () => {
    expect(parseJsonBody('{"a":[1,{"b":"[{"}]}')).toEqual({ a: [1, { b: '[{' }] });
    expect(parseJsonBody('[1,2]')).toEqual([1, 2]);
  });

  it.each(['', '{', '"x"', '1', 'null', 'true', '{"a":1}x'])('refuses %j with a BadRequest', (text) => {
    expect(() => parseJsonBody(text)).toThrow(BadRequest);
  });

  it('counts depth outside strings only, escapes included', () => {
    expect(exceedsDepth('[[[]]]', 3)).toBe(false);
    expect(exceedsDepth('[[[[]]]]', 3)).toBe(true);
    expect(exceedsDepth('["[[[[[[", "\\"[[[[[["]', 1)).toBe(false);
    expect(exceedsDepth('{"a\\\\":[[1]]}', 2)).toBe(true);
  });

  it('refuses nesting past the limit, 10,000 levels without a stack overflow', () => {
    expect(() => parseJsonBody('['.repeat(MAX_BODY_DEPTH) + ']'.repeat(MAX_BODY_DEPTH))).not.toThrow();
    expect(() => parseJsonBody('['.repeat(MAX_BODY_DEPTH + 1) + ']'.repeat(MAX_BODY_DEPTH + 1))).toThrow(
      /nested deeper/,
    );
    expect(() => parseJsonBody('['.repeat(10_000) + ']'.repeat(10_000))).toThrow(/nested deeper/);
    expect(() => parseJsonBody('{"a":'.repeat(10_000))).toThrow(/nested deeper/);
  });

  it('refuses __proto__ keys at any depth, also when escaped', () => {
    expect(() => parseJsonBody('{"__proto__":{"x":1}}')).toThrow(/__proto__/);
    expect(() => parseJsonBody('[{"a":{"\\u005f_proto__":1}}]')).toThrow(/__proto__/);
    expect(parseJsonBody('{"text":"__proto__","u":"\\u00e9"}')).toEqual({ text: '__proto__', u: 'é' });
  });
});
