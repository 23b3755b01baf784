import { BSON, Decimal128, Double, Int32, Long } from 'bson';
import { compareBson } from '../../../src/embedded-mongo/query/bson-compare';
import { addNumbers } from '../../../src/embedded-mongo/query/bson-numbers';
import { compileFilter } from '../../../src/embedded-mongo/query/match';
import { parseCollation } from '../../../src/embedded-mongo/query/collation';
import { decodeStoredDocument } from '../../../src/embedded-mongo/wire/bson-codec';

describe('server value model', () => {
  test('decoding keeps integral doubles and int64 wrapped, int32 and fractional doubles plain', () => {
    const doc = decodeStoredDocument(
      BSON.serialize({ i: new Int32(1), d: new Double(2), f: 2.5, l: Long.fromNumber(3), n: { d: new Double(4) } }),
    );
    expect(doc.i).toBe(1);
    expect(doc.d).toBeInstanceOf(Double);
    expect(doc.f).toBe(2.5);
    expect(doc.l).toBeInstanceOf(Long);
    expect(doc.n.d).toBeInstanceOf(Double);
    const again = BSON.deserialize(BSON.serialize(doc), { promoteValues: false });
    expect(again.d).toBeInstanceOf(Double);
    expect(again.i).toBeInstanceOf(Int32);
  });

  test('compareBson orders numbers by value across widths, then by type class', () => {
    expect(compareBson(new Double(2), 1)).toBe(1);
    expect(compareBson(Long.fromString('9007199254740993'), Long.fromString('9007199254740992'))).toBe(1);
    expect(compareBson(Decimal128.fromString('1.5'), 1)).toBe(1);
    expect(compareBson(null, 0)).toBe(-1);
    expect(compareBson(100, 'a')).toBe(-1);
  });

  test('addNumbers widens like mongod', () => {
    expect(addNumbers(2147483647, 1)).toEqual(Long.fromNumber(2147483648));
    expect(addNumbers(Long.fromNumber(1), 1)).toEqual(Long.fromNumber(2));
    expect(addNumbers(new Double(1), 2)).toEqual(new Double(3));
    expect(addNumbers(1.5, 1.5)).toEqual(new Double(3));
  });

  test('filters match across numeric types and $type sees the stored width', () => {
    expect(compileFilter({ a: 5 })({ a: Long.fromNumber(5) })).toBe(true);
    expect(compileFilter({ a: { $gte: new Double(5) } })({ a: 5 })).toBe(true);
    expect(compileFilter({ a: { $type: 'long' } })({ a: Long.fromNumber(5) })).toBe(true);
    expect(compileFilter({ a: { $type: 'int' } })({ a: Long.fromNumber(5) })).toBe(false);
    expect(compileFilter({ a: { $type: 'double' } })({ a: new Double(5) })).toBe(true);
    expect(compileFilter({ a: { $not: { $type: 'double' } } })({ a: 5 })).toBe(true);
    expect(compileFilter({ 'a.b': { $type: 'array' } })({ a: { b: [] } })).toBe(true);
  });

  test('collated matching folds case and orders digits numerically', () => {
    const settings = { collation: parseCollation({ locale: 'en_US', strength: 2, numericOrdering: true }) };
    expect(compileFilter({ name: 'ALICE' }, settings)({ name: 'alice' })).toBe(true);
    expect(compileFilter({ file: { $gt: 'F9' } }, settings)({ file: 'f10' })).toBe(true);
    expect(compileFilter({ $expr: { $eq: ['$Name', 'x'] } }, settings)({ Name: 'x' })).toBe(true);
  });
});
