import { patchToUpdate } from '../../../../src/adapters/mongo/patch-to-update';

const convert = (data: Record<string, unknown>, allowedOperators: string[] = []) =>
  patchToUpdate(data, { protectedFields: ['_id', 'customid'], allowedOperators });

describe('patchToUpdate', () => {
  it('turns plain data into $set without the id fields', () => {
    expect(convert({ a: 1, 'b.c': 2, _id: 'x', customid: 'y', 'customid.z': 1 })).toEqual({ $set: { a: 1, 'b.c': 2 } });
    expect(convert({ _id: 'x' })).toEqual({});
  });

  it('refuses operators that are not allowed', () => {
    for (const data of [{ $inc: { a: 1 } }, { $set: { a: 1 } }, { $rename: { a: 'b' } }, { $where: 'x' }]) {
      expect(() => convert(data)).toThrow(expect.objectContaining({ code: 400 }));
    }
  });

  it('passes allowed operators, merging $set with plain keys (plain keys win)', () => {
    expect(
      convert({ $inc: { n: 1 }, $set: { a: 1, b: 1 }, b: 2, $push: { tags: { $each: ['x'] } } }, [
        '$inc',
        '$set',
        '$push',
      ]),
    ).toEqual({
      $inc: { n: 1 },
      $set: { a: 1, b: 2 },
      $push: { tags: { $each: ['x'] } },
    });
  });

  it('drops protected fields from every operator, also as a $rename target', () => {
    expect(
      convert({ $unset: { _id: '' }, $rename: { a: '_id', b: 'c' }, $inc: { customid: 1 } }, [
        '$unset',
        '$rename',
        '$inc',
      ]),
    ).toEqual({ $rename: { b: 'c' } });
  });

  it('refuses malformed operator values and field names', () => {
    for (const data of [
      { $inc: 1 },
      { $inc: [1] },
      { $inc: { $where: 1 } },
      { __proto__x: 1, constructor: 1 },
      { $set: { 'a.__proto__': 1 } },
    ]) {
      expect(() => convert(data as Record<string, unknown>, ['$inc', '$set'])).toThrow(
        expect.objectContaining({ code: 400 }),
      );
    }
  });
});
