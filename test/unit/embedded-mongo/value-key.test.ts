import { Long, ObjectId } from 'bson';
import { valueKey } from '../../../src/embedded-mongo/storage/value-key';

describe('valueKey', () => {
  test('equal BSON values share a key across instances and numeric widths', () => {
    const id = new ObjectId();
    expect(valueKey(new ObjectId(id.toHexString()))).toBe(valueKey(id));
    expect(valueKey(Long.fromNumber(5))).toBe(valueKey(5));
    expect(valueKey(new Date(5))).toBe(valueKey(new Date(5)));
    expect(valueKey(null)).toBe(valueKey(undefined));
  });

  test('different types and key orders stay distinct', () => {
    expect(valueKey('1')).not.toBe(valueKey(1));
    expect(valueKey({ a: 1, b: 2 })).not.toBe(valueKey({ b: 2, a: 1 }));
    expect(valueKey(['a,b'])).not.toBe(valueKey(['a', 'b']));
    expect(valueKey(true)).not.toBe(valueKey(1));
  });
});
