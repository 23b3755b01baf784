import { ObjectId } from 'bson';
import { objectifyCondition } from '../../../src/adapters/mongo/query-to-filter';
import { resolveQueryObjectId } from '../../../src/adapters/mongo/object-id';
import { MAX_QUERY_DEPTH } from '../../../src/domain/query';
import { isOperatorObject, mapConditions, mapOperands } from '../../../src/domain/query-conditions';

const upper = (value: unknown) => (typeof value === 'string' ? value.toUpperCase() : value);

describe('mapConditions: the one walk over a query', () => {
  it('replaces each condition, in branches of $or, $and and $nor too', () => {
    const seen: Array<[string, number]> = [];
    const mapped = mapConditions(
      { a: 'x', $or: [{ b: 'y' }, { $and: [{ c: 'z' }] }], $nor: [{ d: 'w' }] },
      {
        field: (key, value, depth) => {
          seen.push([key, depth]);
          return upper(value);
        },
      },
    );
    expect(mapped).toEqual({ a: 'X', $or: [{ b: 'Y' }, { $and: [{ c: 'Z' }] }], $nor: [{ d: 'W' }] });
    expect(seen).toEqual([
      ['a', 1],
      ['b', 2],
      ['c', 3],
      ['d', 2],
    ]);
  });

  it('lets the visitor refuse a combinator, and refuses branches that are not arrays of queries', () => {
    const refuseNor = {
      field: (_key: string, value: unknown) => value,
      combinator: (key: string) => {
        if (key === '$nor') throw new Error('no $nor');
      },
    };
    expect(() => mapConditions({ $nor: [] }, refuseNor)).toThrow('no $nor');
    expect(() => mapConditions({ $or: {} }, refuseNor)).toThrow('$or must be an array of queries');
    expect(() => mapConditions({ $and: ['x'] }, refuseNor)).toThrow('$and must be an array of queries');
  });

  it(`stops at ${MAX_QUERY_DEPTH} levels`, () => {
    let query: Record<string, unknown> = { a: 1 };
    for (let level = 0; level < MAX_QUERY_DEPTH + 1; level++) query = { $or: [query] };
    expect(() => mapConditions(query, { field: (_key, value) => value })).toThrow('nested too deeply');
  });
});

describe('mapOperands: the values a condition compares with', () => {
  it('converts plain values, list operands, comparisons and $not, and keeps other operators', () => {
    expect(mapOperands('a', upper)).toBe('A');
    expect(mapOperands(['a', 'b'], upper)).toEqual(['A', 'B']);
    expect(
      mapOperands(
        {
          $in: ['a'],
          $nin: ['b'],
          $all: ['c'],
          $eq: 'd',
          $ne: 'e',
          $gt: 'f',
          $gte: 'g',
          $lt: 'h',
          $lte: 'i',
          $not: { $eq: 'j' },
          $exists: 'k',
          $regex: 'l',
        },
        upper,
      ),
    ).toEqual({
      $in: ['A'],
      $nin: ['B'],
      $all: ['C'],
      $eq: 'D',
      $ne: 'E',
      $gt: 'F',
      $gte: 'G',
      $lt: 'H',
      $lte: 'I',
      $not: { $eq: 'J' },
      $exists: 'k',
      $regex: 'l',
    });
  });

  it('refuses a list operator without an array', () => {
    expect(() => mapOperands({ $in: 'a' }, upper)).toThrow('$in needs an array');
  });

  it('tells operator objects from values', () => {
    expect(isOperatorObject({ $in: [] })).toBe(true);
    expect(isOperatorObject({})).toBe(false);
    expect(isOperatorObject({ $in: [], a: 1 })).toBe(false);
    expect(isOperatorObject(new ObjectId())).toBe(false);
    expect(isOperatorObject(new Date())).toBe(false);
  });
});

describe('resolveQueryObjectId and DatabaseService convert the same operators', () => {
  const hex = '507f1f77bcf86cd799439011';
  it.each([
    [hex],
    [{ $in: [hex] }],
    [{ $nin: [hex] }],
    [{ $all: [hex] }],
    [{ $eq: hex }],
    [{ $ne: hex }],
    [{ $gt: hex }],
    [{ $gte: hex }],
    [{ $lt: hex }],
    [{ $lte: hex }],
    [{ $not: { $in: [hex] } }],
    [{ $exists: true }],
  ])('%j', (condition) => {
    const resolved = resolveQueryObjectId(condition);
    expect(resolved).toEqual(objectifyCondition(condition));
    expect(JSON.stringify(resolved)).toBe(JSON.stringify(condition));
    if (condition !== hex && !('$exists' in (condition as object))) expect(resolved).not.toEqual(condition);
  });
});
