import { Decimal128, Double, Int32, Long, ObjectId } from 'bson';
import {
  bsonTypeNames,
  findExactMismatch,
  findMismatch,
  type MatchEntities,
} from '../../integration/conformance/matcher';

const entities: MatchEntities = {
  entity: (id) => ({ oid: new ObjectId('0123456789abcdef01234567'), doc: { a: 1 } })[id],
  sessionLsid: (id) => ({ id: `lsid-${id}` }),
};

describe('unified matcher: documents', () => {
  test('a root-level document may carry extra fields', () => {
    expect(findMismatch({ x: 1 }, { x: 1, y: 1 })).toBeUndefined();
  });

  test('a root-level document must have every expected field', () => {
    expect(findMismatch({ x: 1, y: 1 }, { x: 1 })).toMatch(/\$\.y: missing/);
  });

  test('a nested document may not carry extra fields', () => {
    expect(findMismatch({ x: { y: 1 } }, { x: { y: 1, z: 1 } })).toMatch(/unexpected field\(s\) z/);
  });

  test('fields whose value is undefined count as absent', () => {
    expect(findMismatch({ x: { y: 1 } }, { x: { y: 1, sort: undefined } })).toBeUndefined();
  });

  test('key order does not matter', () => {
    expect(findMismatch({ a: { x: 1, y: 2 } }, { a: { y: 2, x: 1 } })).toBeUndefined();
  });

  test('isRoot: false forbids extra fields at the top', () => {
    expect(findMismatch({ x: 1 }, { x: 1, y: 1 }, { isRoot: false })).toMatch(/unexpected/);
  });

  test('null matches only null', () => {
    expect(findMismatch(null, null)).toBeUndefined();
    expect(findMismatch({ a: null }, { a: 0 })).toMatch(/expected null/);
  });
});

describe('unified matcher: arrays', () => {
  test('arrays need the same length', () => {
    expect(findMismatch([1, 2, 3], [1, 2, 3, 4])).toMatch(/expected 3 element/);
  });

  test('documents in a plain array are not root-level (distinct)', () => {
    expect(findMismatch([{ x: 1 }], [{ x: 1, y: 1 }])).toMatch(/unexpected/);
  });

  test('cursor results are arrays of root-level documents (find, aggregate)', () => {
    expect(
      findMismatch(
        [{ x: 1 }, { x: 2 }],
        [
          { x: 1, y: 1 },
          { x: 2, y: 2 },
        ],
        { rootElements: true },
      ),
    ).toBeUndefined();
  });

  test('cursor result order matters', () => {
    expect(findMismatch([{ x: 1 }, { x: 2 }], [{ x: 2 }, { x: 1 }], { rootElements: true })).toMatch(/\$\[0\]\.x/);
  });
});

describe('unified matcher: numbers', () => {
  test('int32, int64 and double compare by value', () => {
    expect(findMismatch({ n: 1 }, { n: new Double(1) })).toBeUndefined();
    expect(findMismatch({ n: new Int32(5) }, { n: Long.fromNumber(5) })).toBeUndefined();
    expect(findMismatch({ n: Long.fromNumber(5) }, { n: 5n })).toBeUndefined();
  });

  test('different values do not match', () => {
    expect(findMismatch({ n: 1 }, { n: 1.5 })).toMatch(/expected 1, got 1.5/);
  });

  test('a number never matches a string', () => {
    expect(findMismatch({ n: 1 }, { n: '1' })).toMatch(/expected 1/);
  });

  test('Decimal128 is not a flexible numeric', () => {
    expect(findMismatch({ n: 1 }, { n: Decimal128.fromString('1') })).toBeDefined();
    expect(findMismatch({ n: Decimal128.fromString('1.0') }, { n: Decimal128.fromString('1.0') })).toBeUndefined();
  });
});

describe('unified matcher: special operators', () => {
  test('$$exists checks presence only', () => {
    expect(findMismatch({ a: { $$exists: true } }, { a: null })).toBeUndefined();
    expect(findMismatch({ a: { $$exists: true } }, {})).toMatch(/expected present/);
    expect(findMismatch({ a: { $$exists: false } }, {})).toBeUndefined();
    expect(findMismatch({ a: { $$exists: false } }, { a: 1 })).toMatch(/expected absent/);
  });

  test('$$exists: false is satisfied inside a nested document too', () => {
    expect(findMismatch({ c: { comment: { $$exists: false }, b: 1 } }, { c: { b: 1 } })).toBeUndefined();
  });

  test('$$type accepts a name or a list of names', () => {
    expect(findMismatch({ a: { $$type: 'string' } }, { a: 'x' })).toBeUndefined();
    expect(findMismatch({ a: { $$type: ['string', 'object'] } }, { a: { b: 1 } })).toBeUndefined();
    expect(findMismatch({ a: { $$type: ['int', 'long'] } }, { a: Long.fromNumber(7) })).toBeUndefined();
    expect(findMismatch({ a: { $$type: 'double' } }, { a: 0.25 })).toBeUndefined();
    expect(findMismatch({ a: { $$type: 'string' } }, { a: 1 })).toMatch(/expected type string/);
    expect(findMismatch({ a: { $$type: 'string' } }, {})).toMatch(/absent/);
  });

  test('$$type checks the array itself, not its elements', () => {
    expect(findMismatch({ a: { $$type: 'array' } }, { a: [1] })).toBeUndefined();
    expect(findMismatch({ a: { $$type: 'int' } }, { a: [1] })).toBeDefined();
  });

  test('$$type names for BSON wrappers are exact', () => {
    expect(bsonTypeNames(new Int32(1))).toEqual(['int', 'number']);
    expect(bsonTypeNames(new ObjectId())).toEqual(['objectId']);
    expect(bsonTypeNames(new Date())).toEqual(['date']);
  });

  test('$$unsetOrMatches accepts absence or a match', () => {
    expect(findMismatch({ a: { $$unsetOrMatches: 1 } }, {})).toBeUndefined();
    expect(findMismatch({ a: { $$unsetOrMatches: 1 } }, { a: 1 })).toBeUndefined();
    expect(findMismatch({ a: { $$unsetOrMatches: 1 } }, { a: 2 })).toMatch(/expected 1, got 2/);
  });

  test('$$unsetOrMatches at the root accepts an undefined result and keeps root leniency', () => {
    expect(findMismatch({ $$unsetOrMatches: { insertedId: 1 } }, undefined)).toBeUndefined();
    expect(
      findMismatch({ $$unsetOrMatches: { insertedId: 1 } }, { insertedId: 1, acknowledged: true }),
    ).toBeUndefined();
    expect(findMismatch({ $$unsetOrMatches: null }, null)).toBeUndefined();
  });

  test('$$unsetOrMatches does not make a nested document root-level', () => {
    expect(findMismatch({ ids: { $$unsetOrMatches: { 0: 2 } } }, { ids: { 0: 2, 1: 3 } })).toMatch(/unexpected/);
  });

  test('$$matchesEntity compares with a saved entity', () => {
    const oid = new ObjectId('0123456789abcdef01234567');
    expect(findMismatch({ _id: { $$matchesEntity: 'oid' } }, { _id: oid }, { entities })).toBeUndefined();
    expect(findMismatch({ _id: { $$matchesEntity: 'oid' } }, { _id: new ObjectId() }, { entities })).toBeDefined();
    expect(findMismatch({ _id: { $$matchesEntity: 'oid' } }, { _id: oid })).toMatch(/needs an entity map/);
  });

  test('$$sessionLsid compares with the session id', () => {
    expect(findMismatch({ lsid: { $$sessionLsid: 's0' } }, { lsid: { id: 'lsid-s0' } }, { entities })).toBeUndefined();
    expect(findMismatch({ lsid: { $$sessionLsid: 's0' } }, { lsid: { id: 'lsid-s1' } }, { entities })).toBeDefined();
  });

  test('$$lte is numeric and flexible', () => {
    expect(findMismatch({ n: { $$lte: 5 } }, { n: new Double(5) })).toBeUndefined();
    expect(findMismatch({ n: { $$lte: 1 } }, { n: 0 })).toBeUndefined();
    expect(findMismatch({ n: { $$lte: 1 } }, { n: 1.1 })).toMatch(/expected <= 1/);
  });

  test('$$matchAsDocument parses extended JSON and forbids extra fields', () => {
    expect(findMismatch({ $$matchAsDocument: { a: 1 } }, '{"a": {"$numberInt": "1"}}')).toBeUndefined();
    expect(findMismatch({ $$matchAsDocument: { a: 1 } }, '{"a": 1, "b": 2}')).toMatch(/unexpected/);
    expect(findMismatch({ $$matchAsDocument: { $$matchAsRoot: { a: 1 } } }, '{"a": 1, "b": 2}')).toBeUndefined();
  });

  test('$$matchAsRoot allows extra fields in a nested document', () => {
    expect(findMismatch({ x: { $$matchAsRoot: { y: 1 } } }, { x: { y: 1, z: 1 } })).toBeUndefined();
  });

  test('an unknown $$ operator is reported', () => {
    expect(findMismatch({ a: { $$bogus: 1 } }, { a: 1 })).toMatch(/unsupported special operator \$\$bogus/);
  });
});

describe('exact matching for outcome', () => {
  test('extra fields at the root are not allowed', () => {
    expect(findExactMismatch([{ _id: 1 }], [{ _id: 1, x: 1 }])).toMatch(/unexpected field\(s\) x/);
  });

  test('$$ keys are compared literally', () => {
    expect(findExactMismatch([{ a: { $$exists: true } }], [{ a: 1 }])).toBeDefined();
  });

  test('key order may differ', () => {
    expect(findExactMismatch([{ _id: 1, x: 2 }], [{ x: new Int32(2), _id: new Int32(1) }])).toBeUndefined();
  });

  test('numbers keep their BSON type: an int32 is not a double or a long', () => {
    expect(findExactMismatch({ x: 2 }, { x: new Double(2) })).toMatch(/int vs double/);
    expect(findExactMismatch({ x: 2 }, { x: Long.fromNumber(2) })).toMatch(/int vs long/);
    expect(findExactMismatch({ x: 2.5 }, { x: new Double(2.5) })).toBeUndefined();
    expect(findExactMismatch({ x: Long.fromNumber(7) }, { x: Long.fromNumber(7) })).toBeUndefined();
  });

  test('dotted and dollar-prefixed field names are plain keys', () => {
    expect(
      findExactMismatch([{ _id: 1, 'a.b': 1, c: { $d: 1 } }], [{ _id: 1, 'a.b': 1, c: { $d: 1 } }]),
    ).toBeUndefined();
  });
});

describe('driver-built values', () => {
  test('a Map (how the driver builds sort) matches like the document it is sent as', () => {
    expect(findMismatch({ sort: { _id: -1 } }, { sort: new Map([['_id', -1]]) })).toBeUndefined();
    expect(findMismatch({ sort: { _id: -1 } }, { sort: new Map([['_id', 1]]) })).toMatch(/expected -1, got 1/);
  });
});
