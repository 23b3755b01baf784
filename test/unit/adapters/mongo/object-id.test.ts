import { ObjectId } from 'mongodb';
import {
  idEquals,
  isObjectIdLike,
  isObjectIdString,
  resolveObjectId,
  resolveQueryObjectId,
  toObjectId,
} from '../../../../src/adapters/mongo/object-id';

const HEX = '568225fbfe21222432e836ff';
const OTHER = '568225fbfe21222432e83700';

/** Stands in for an ObjectId of another bson copy: a class instance with `_bsontype` and `toHexString`. */
class ForeignObjectId {
  readonly _bsontype = 'ObjectId';
  constructor(private readonly hex: string) {}
  toHexString(): string {
    return this.hex;
  }
}

describe('ObjectId helpers', () => {
  it('isObjectIdString accepts only 24-hex strings (not 12-character strings)', () => {
    expect(isObjectIdString(HEX)).toBe(true);
    expect(isObjectIdString(HEX.toUpperCase())).toBe(true);
    for (const value of ['lessonKTDA03', `${HEX}0`, 'zz8225fbfe21222432e836ff', 123, null, {}])
      expect(isObjectIdString(value)).toBe(false);
  });

  it('isObjectIdLike recognises class instances with _bsontype, not plain JSON objects', () => {
    expect(isObjectIdLike(new ObjectId())).toBe(true);
    expect(isObjectIdLike(new ForeignObjectId(HEX))).toBe(true);
    expect(isObjectIdLike({ _bsontype: 'ObjectId', toHexString: () => HEX })).toBe(false);
    expect(isObjectIdLike(HEX)).toBe(false);
  });

  it('toObjectId re-wraps foreign ObjectIds in the driver class', () => {
    const converted = toObjectId(new ForeignObjectId(HEX));
    expect(converted).toBeInstanceOf(ObjectId);
    expect(converted!.toHexString()).toBe(HEX);
    expect(toObjectId('nope')).toBeUndefined();
  });

  it('idEquals compares ObjectIds and hex strings', () => {
    expect(idEquals(new ObjectId(HEX), HEX)).toBe(true);
    expect(idEquals(new ForeignObjectId(HEX), new ObjectId(HEX))).toBe(true);
    expect(idEquals(HEX, OTHER)).toBe(false);
    expect(idEquals('a', 'a')).toBe(true);
  });

  describe('resolveObjectId', () => {
    it('works called plainly and as a property resolver (value, data, context)', async () => {
      expect(resolveObjectId(HEX).toHexString()).toBe(HEX);
      const resolver: (value: unknown, data: object, context: object) => unknown = resolveObjectId;
      const resolved = await Promise.resolve(resolver(HEX, { any: 1 }, {}));
      expect(resolved).toBeInstanceOf(ObjectId);
    });

    it('passes undefined and null through and refuses invalid values with a 400', () => {
      expect(resolveObjectId(undefined)).toBeUndefined();
      expect(resolveObjectId(null)).toBeNull();
      for (const value of ['nope', 12, { $ne: 1 }])
        expect(() => resolveObjectId(value)).toThrow(expect.objectContaining({ code: 400 }));
    });
  });

  describe('resolveQueryObjectId', () => {
    it('converts strings and the values inside $in, $nin, $ne, keeping other operators', () => {
      expect(resolveQueryObjectId(HEX)).toEqual(new ObjectId(HEX));
      expect(resolveQueryObjectId({ $in: [HEX, OTHER], $nin: [OTHER], $ne: HEX, $exists: true })).toEqual({
        $in: [new ObjectId(HEX), new ObjectId(OTHER)],
        $nin: [new ObjectId(OTHER)],
        $ne: new ObjectId(HEX),
        $exists: true,
      });
    });

    it('keeps undefined and refuses invalid ids', () => {
      expect(resolveQueryObjectId(undefined)).toBeUndefined();
      expect(() => resolveQueryObjectId({ $in: ['bad'] })).toThrow(expect.objectContaining({ code: 400 }));
      expect(() => resolveQueryObjectId({ $in: HEX })).toThrow(expect.objectContaining({ code: 400 }));
    });
  });
});
