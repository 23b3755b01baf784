import { Double, Int32 } from 'bson';
import { describeUpdate } from '../../../../src/embedded-mongo/change-streams/update-description';

describe('describeUpdate (a change event updateDescription, as mongod derives it from its oplog diff)', () => {
  it('reports set fields by dotted path into embedded documents, and removed fields', () => {
    expect(describeUpdate({ _id: 1, a: 1, b: { c: 1, d: 2 }, gone: true }, { _id: 1, a: 2, b: { c: 1, d: 3, e: 4 } })).toEqual({
      updatedFields: { a: 2, 'b.d': 3, 'b.e': 4 },
      removedFields: ['gone'],
      truncatedArrays: [],
    });
  });

  it('reports appended array elements by index and a shortened array in truncatedArrays', () => {
    expect(describeUpdate({ list: [1, 2, 3] }, { list: [1, 9] })).toEqual({ updatedFields: { 'list.1': 9 }, removedFields: [], truncatedArrays: [{ field: 'list', newSize: 2 }] });
    expect(describeUpdate({ list: [1] }, { list: [1, 2] }).updatedFields).toEqual({ 'list.1': 2 });
  });

  it('a value of another BSON type is a change (1 and 1.0 differ as stored), an identical one is not', () => {
    expect(describeUpdate({ n: new Int32(1) }, { n: new Double(1) }).updatedFields).toEqual({ n: new Double(1) });
    expect(describeUpdate({ n: { x: [1, { y: 2 }] } }, { n: { x: [1, { y: 2 }] } }).updatedFields).toEqual({});
  });
});
