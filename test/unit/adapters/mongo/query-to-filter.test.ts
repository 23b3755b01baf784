import { ObjectId } from 'mongodb';
import { queryToFilter } from '../../../../src/adapters/mongo/query-to-filter';

const A = '568225fbfe21222432e836ff';
const B = '568225fbfe21222432e83700';
const oid = (hex: string) => new ObjectId(hex);

describe('queryToFilter', () => {
  it('converts hex strings on _id, in $in/$nin/$ne/comparisons, $not and logical branches', () => {
    const filter = queryToFilter(
      {
        _id: { $in: [A, 'plain'], $nin: [B], $ne: A, $gt: B, $not: { $eq: A }, $exists: true },
        $or: [{ _id: A }, { $and: [{ _id: { $ne: B } }] }],
        userId: A,
      },
      { objectIdField: '_id' },
    );
    expect(filter).toEqual({
      _id: { $in: [oid(A), 'plain'], $nin: [oid(B)], $ne: oid(A), $gt: oid(B), $not: { $eq: oid(A) }, $exists: true },
      $or: [{ _id: oid(A) }, { $and: [{ _id: { $ne: oid(B) } }] }],
      userId: A,
    });
  });

  it('converts nothing without an ObjectId field (disableObjectify)', () => {
    expect(queryToFilter({ _id: { $in: [A] } })).toEqual({ _id: { $in: [A] } });
  });

  it('keeps invalid id strings as strings (they match nothing)', () => {
    expect(queryToFilter({ _id: 'lessonKTDA03' }, { objectIdField: '_id' })).toEqual({ _id: 'lessonKTDA03' });
  });

  it.each([
    [{ $where: 'true' }],
    [{ $expr: { $eq: [1, 1] } }],
    [{ a: { $function: {} } }],
    [{ a: { $elemMatch: { $accumulator: {} } } }],
    [{ $or: [{ $where: 'x' }] }],
    [{ $lookup: {} }],
    [{ a: [{ $unionWith: 'x' }] }],
  ])('refuses %j as a second line of defence', (query) => {
    expect(() => queryToFilter(query, { objectIdField: '_id' })).toThrow(expect.objectContaining({ code: 400 }));
  });

  it('checks $regex and $options', () => {
    expect(queryToFilter({ name: { $regex: '^a', $options: 'imsx' } })).toEqual({
      name: { $regex: '^a', $options: 'imsx' },
    });
    for (const condition of [
      { $regex: 1 },
      { $regex: 'a', $options: 'g' },
      { $regex: 'a', $options: 'ii' },
      { $options: 'i' },
      { $regex: 'a'.repeat(1025) },
    ]) {
      expect(() => queryToFilter({ name: condition })).toThrow(expect.objectContaining({ code: 400 }));
    }
  });

  it('checks $text', () => {
    expect(queryToFilter({ $text: { $search: 'fox', $caseSensitive: 'true' } })).toEqual({
      $text: { $search: 'fox', $caseSensitive: true },
    });
    for (const text of [
      'fox',
      { $search: 1 },
      { $search: 'a', $where: 'x' },
      { $search: 'a', $caseSensitive: 'maybe' },
    ]) {
      expect(() => queryToFilter({ $text: text })).toThrow(expect.objectContaining({ code: 400 }));
    }
  });

  it('does not change its input', () => {
    const query = { _id: { $in: [A] } };
    queryToFilter(query, { objectIdField: '_id' });
    expect(query).toEqual({ _id: { $in: [A] } });
  });
});
