import { isPaginating, resolveLimit } from '../../../../src/application/query/pagination';

describe('resolveLimit', () => {
  it('without pagination returns the requested limit as it is', () => {
    expect(resolveLimit(undefined, false)).toBeUndefined();
    expect(resolveLimit(undefined, undefined)).toBeUndefined();
    expect(resolveLimit(500, false)).toBe(500);
  });

  it.each([
    [undefined, 2],
    [10, 4],
    [3, 3],
    [0, 0],
  ])('with { default: 2, max: 4 } maps %p to %p', (requested, expected) => {
    expect(resolveLimit(requested, { default: 2, max: 4 })).toBe(expected);
  });

  it('uses max as the default when there is no default', () => {
    expect(resolveLimit(undefined, { max: 5 })).toBe(5);
    expect(resolveLimit(2, { max: 5 })).toBe(2);
    expect(resolveLimit(9, { max: 5 })).toBe(5);
  });

  it('with a default and no max does not cap', () => {
    expect(resolveLimit(undefined, { default: 3 })).toBe(3);
    expect(resolveLimit(1000, { default: 3 })).toBe(1000);
  });

  it('with an empty object leaves the limit alone', () => {
    expect(resolveLimit(undefined, {})).toBeUndefined();
    expect(resolveLimit(7, {})).toBe(7);
  });
});

describe('isPaginating', () => {
  it('is true when default or max is set', () => {
    expect(isPaginating({ default: 1 })).toBe(true);
    expect(isPaginating({ max: 1 })).toBe(true);
    expect(isPaginating({})).toBe(false);
    expect(isPaginating(false)).toBe(false);
    expect(isPaginating(undefined)).toBe(false);
  });
});
