import { Long } from 'bson';
import { chooseIndex } from '../../../src/embedded-mongo/indexes/choose-plan';
import { ALL_VALUES, pointInterval, typeInterval } from '../../../src/embedded-mongo/indexes/key-bounds';
import { OrderedIndex } from '../../../src/embedded-mongo/indexes/ordered-index';
import { filterBounds } from '../../../src/embedded-mongo/indexes/query-bounds';
import { valueKey } from '../../../src/embedded-mongo/storage/value-key';

function indexOf(
  key: Record<string, 1 | -1>,
  docs: Array<Record<string, unknown>>,
  options: Record<string, unknown> = {},
): OrderedIndex {
  const index = new OrderedIndex({ v: 2, key, name: 'test', ...options });
  index.build(docs.map((doc) => [valueKey(doc._id), doc]));
  return index;
}

const ids = (index: OrderedIndex, intervals: Parameters<OrderedIndex['scan']>[0], reverse = false) => [
  ...new Set([...index.scan(intervals, reverse, { keysExamined: 0 })].map((entry) => entry.doc._id)),
];

describe('OrderedIndex', () => {
  const docs = [
    { _id: 1, a: 5, b: 'x' },
    { _id: 2, a: Long.fromNumber(3), b: 'y' },
    { _id: 3, a: 'five', b: 'x' },
    { _id: 4, b: 'z' },
    { _id: 5, a: [7, 1], b: 'x' },
    { _id: 6, a: null, b: 'y' },
  ];

  test('keeps keys in BSON order across types, with one key per array element', () => {
    const index = indexOf({ a: 1 }, docs);
    expect(index.multikey).toBe(true);
    expect(ids(index, [ALL_VALUES])).toEqual([6, 4, 5, 2, 1, 3]);
    expect(ids(index, [ALL_VALUES], true)).toEqual([3, 5, 1, 2, 4, 6]);
  });

  test('points, type-bracketed ranges and null-or-missing', () => {
    const index = indexOf({ a: 1 }, docs);
    expect(ids(index, [pointInterval(3)])).toEqual([2]);
    expect(ids(index, filterBounds({ a: { $gt: 2 } }).get('a')!.intervals)).toEqual([2, 1, 5]);
    expect(ids(index, [typeInterval(2)]).sort()).toEqual([4, 6]);
  });

  test('insert and remove keep the order; compound keys honour directions', () => {
    const index = indexOf({ b: 1, a: -1 }, docs.slice(0, 2));
    index.add({ _id: 9, a: 9, b: 'x' }, valueKey(9));
    index.add({ _id: 10, a: 0, b: 'x' }, valueKey(10));
    expect(ids(index, [pointInterval('x')])).toEqual([9, 1, 10]);
    index.remove({ _id: 9, a: 9, b: 'x' }, valueKey(9));
    expect(ids(index, [pointInterval('x')])).toEqual([1, 10]);
    expect(index.size).toBe(3);
  });

  test('a collated index compares strings with the collator', () => {
    const index = indexOf(
      { b: 1 },
      [
        { _id: 1, b: 'Ann' },
        { _id: 2, b: 'ann' },
        { _id: 3, b: 'Bob' },
      ],
      { collation: { locale: 'en', strength: 2 } },
    );
    expect(ids(index, [pointInterval('ANN')])).toEqual([1, 2]);
  });
});

describe('chooseIndex', () => {
  const a = indexOf({ a: 1 }, [{ _id: 1, a: 1 }]);
  const ab = new OrderedIndex({ v: 2, key: { a: 1, b: 1 }, name: 'a_1_b_1' });

  test('prefers more equality fields and reports exactness', () => {
    const choice = chooseIndex([a, ab], { filter: { a: 1, b: 2 } });
    expect(choice.plan?.index.name).toBe('a_1_b_1');
    expect(choice.plan?.exact).toBe(true);
    expect(chooseIndex([a], { filter: { a: 1, c: 2 } }).plan?.exact).toBe(false);
    expect(chooseIndex([a], { filter: { c: 2 } }).plan).toBeUndefined();
  });

  test('uses an index for a sort, backwards when reversed', () => {
    const choice = chooseIndex([a], { filter: {}, sort: [['a', -1]] });
    expect(choice.plan).toMatchObject({ sorted: true, reverse: true });
  });

  test('hints by name or pattern; $natural; unknown hints throw BadValue', () => {
    expect(chooseIndex([a, ab], { filter: { a: 1 }, hint: 'a_1_b_1' }).plan?.index).toBe(ab);
    expect(chooseIndex([a, ab], { filter: {}, hint: { a: 1 } }).plan?.index).toBe(a);
    expect(chooseIndex([a], { filter: { a: 1 }, hint: { $natural: 1 } })).toMatchObject({ natural: true });
    expect(() => chooseIndex([a], { filter: {}, hint: 'missing' })).toThrow(
      'hint provided does not correspond to an existing index',
    );
  });
});
