import { BSON, Double, Int32, ObjectId } from 'bson';
import type { UpdateDescription } from '../../../../src/embedded-mongo/change-streams/change-record';
import {
  describeUpdate,
  updateDescriptionBytes,
} from '../../../../src/embedded-mongo/change-streams/update-description';

describe('describeUpdate (a change event updateDescription, as mongod derives it from its oplog diff)', () => {
  it('reports set fields by dotted path into embedded documents, and removed fields', () => {
    expect(
      describeUpdate({ _id: 1, a: 1, b: { c: 1, d: 2 }, gone: true }, { _id: 1, a: 2, b: { c: 1, d: 3, e: 4 } }),
    ).toEqual({
      updatedFields: { a: 2, 'b.d': 3, 'b.e': 4 },
      removedFields: ['gone'],
      truncatedArrays: [],
    });
  });

  it('reports appended array elements by index and a shortened array in truncatedArrays', () => {
    expect(describeUpdate({ list: [1, 2, 3] }, { list: [1, 9] })).toEqual({
      updatedFields: { 'list.1': 9 },
      removedFields: [],
      truncatedArrays: [{ field: 'list', newSize: 2 }],
    });
    expect(describeUpdate({ list: [1] }, { list: [1, 2] }).updatedFields).toEqual({ 'list.1': 2 });
  });

  it('a value of another BSON type is a change (1 and 1.0 differ as stored), an identical one is not', () => {
    expect(describeUpdate({ n: new Int32(1) }, { n: new Double(1) }).updatedFields).toEqual({ n: new Double(1) });
    expect(describeUpdate({ n: { x: [1, { y: 2 }] } }, { n: { x: [1, { y: 2 }] } }).updatedFields).toEqual({});
  });

  it('an equal ObjectId or Date in another instance (a copied document) is no change; another value is', () => {
    const id = new ObjectId();
    const at = new Date(1_700_000_000_000);
    expect(
      describeUpdate({ _id: id, at, n: 1 }, { _id: new ObjectId(id.toHexString()), at: new Date(at.getTime()), n: 2 })
        .updatedFields,
    ).toEqual({ n: 2 });
    const other = new ObjectId();
    const later = new Date(at.getTime() + 1);
    expect(describeUpdate({ ref: id, at }, { ref: other, at: later }).updatedFields).toEqual({ ref: other, at: later });
    // a string is not an ObjectId
    expect(describeUpdate({ ref: id }, { ref: id.toHexString() }).updatedFields).toEqual({ ref: id.toHexString() });
  });
});

describe('updateDescriptionBytes (what an update record counts against the history byte bound)', () => {
  const descriptions: Array<[string, UpdateDescription]> = [
    ['nothing removed or truncated', describeUpdate({ _id: 1, likes: 1 }, { _id: 1, likes: 2 })],
    ['removed fields, one with non-ASCII characters', describeUpdate({ a: 1, bé: 2, 'c.d': { e: 1 } }, { a: 3 })],
    [
      'truncated arrays',
      describeUpdate({ list: [1, 2, 3], other: ['x', 'y'], ñame: [1, 2] }, { list: [1], other: [], ñame: [1] }),
    ],
    [
      'more than ten of each (two-digit array keys)',
      describeUpdate(
        Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`f${i}`, [1, 2]])),
        Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`f${i}`, [1]])),
      ),
    ],
    [
      'more than ten removed fields',
      {
        updatedFields: { a: { b: [1, 'two'] } },
        removedFields: Array.from({ length: 11 }, (_, i) => `gone.${i}`),
        truncatedArrays: [{ field: 'list', newSize: 0 }],
      },
    ],
  ];

  it.each(descriptions)('is the BSON size of the description: %s', (_name, description) => {
    expect(updateDescriptionBytes(description)).toBe(BSON.calculateObjectSize(description));
  });
});
