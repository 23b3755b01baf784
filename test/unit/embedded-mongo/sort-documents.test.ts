import { ObjectId } from 'bson';
import { compareBson } from '../../../src/embedded-mongo/query/bson-compare';
import { parseCollation } from '../../../src/embedded-mongo/query/collation';
import { sortDocuments } from '../../../src/embedded-mongo/query/sort-documents';

describe('BSON ordering and sorting', () => {
  test(
    'cross-type order follows MongoDB: null < numbers < strings < ' + 'objects < arrays < ObjectId < booleans < dates',
    () => {
      const values = [new Date(0), true, new ObjectId(), [1], { a: 1 }, 'a', 1, null];
      const sorted = [...values].sort((a, b) => compareBson(a, b));
      expect(sorted).toEqual([null, 1, 'a', { a: 1 }, [1], values[2], true, values[0]]);
    },
  );

  test('multi-key sort is stable and uses min/max of array fields', () => {
    const docs = [
      { id: 1, v: [5, 1] },
      { id: 2, v: 3 },
      { id: 3, v: [4] },
      { id: 4, v: 3 },
    ];
    expect(sortDocuments(docs, [['v', 1]]).map((d) => d.id)).toEqual([1, 2, 4, 3]);
    expect(sortDocuments(docs, [['v', -1]]).map((d) => d.id)).toEqual([1, 3, 2, 4]);
  });

  test('collation strength 2 sorts case-insensitively', () => {
    const docs = ['Bob', 'alice', 'Dave', 'carol'].map((name) => ({ name }));
    const collation = parseCollation({ locale: 'en_US', strength: 2 });
    expect(sortDocuments(docs, [['name', 1]], collation).map((d) => d.name)).toEqual(['alice', 'Bob', 'carol', 'Dave']);
  });
});
