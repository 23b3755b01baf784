import { upsertSeed } from '../../../src/embedded-mongo/update/upsert-seed';

describe('upsertSeed', () => {
  test.each([
    [{ a: 1, b: { $gt: 1 } }, { a: 1 }],
    [
      { 'x.y': 2, _id: 5 },
      { x: { y: 2 }, _id: 5 },
    ],
    [
      { $and: [{ a: 1 }, { b: { $eq: 2 } }], $or: [{ c: 1 }] },
      { a: 1, b: 2 },
    ],
    [{ name: /re/ }, {}],
    [{ doc: { nested: true } }, { doc: { nested: true } }],
  ])('%j seeds %j', (filter, seed) => {
    expect(upsertSeed(filter)).toEqual(seed);
  });

  test('a path matched twice is an error', () => {
    expect(() => upsertSeed({ $and: [{ a: 1 }, { a: 2 }] })).toThrow(/matched twice/);
  });
});
