import { applyUpdate } from '../../../src/embedded-mongo/update/apply-update';

const settings = { filter: {}, inserting: false };

describe('applyUpdate', () => {
  test('operator updates copy the document and report whether it changed', () => {
    const original = { _id: 1, a: 1, list: [1, 2] };
    const outcome = applyUpdate(original, { $inc: { a: 1 }, $push: { list: 3 } }, settings);
    expect(outcome).toEqual({ doc: { _id: 1, a: 2, list: [1, 2, 3] }, modified: true });
    expect(original).toEqual({ _id: 1, a: 1, list: [1, 2] });
    expect(applyUpdate(original, { $set: { a: 1 } }, settings).modified).toBe(false);
  });

  test('replacement keeps _id first; pipelines cannot drop _id', () => {
    expect(Object.keys(applyUpdate({ _id: 1, a: 1 }, { b: 2 }, settings).doc)).toEqual(['_id', 'b']);
    expect(applyUpdate({ _id: 1, a: 1 }, [{ $project: { _id: 0, a: 1 } }], settings).doc).toEqual({ _id: 1, a: 1 });
  });

  test('$setOnInsert applies only when inserting', () => {
    expect(applyUpdate({ _id: 1 }, { $setOnInsert: { x: 1 } }, settings).doc).toEqual({ _id: 1 });
    expect(applyUpdate({}, { $set: { a: 1 }, $setOnInsert: { x: 1 } }, { ...settings, inserting: true }).doc).toEqual({
      a: 1,
      x: 1,
    });
  });

  test('_id is immutable but may be set to itself, or chosen on insert', () => {
    expect(() => applyUpdate({ _id: 1 }, { $set: { _id: 2 } }, settings)).toThrow(/immutable field '_id'/);
    expect(() => applyUpdate({ _id: 1 }, { $inc: { _id: 1 } }, settings)).toThrow(/immutable/);
    expect(applyUpdate({ _id: 1 }, { $set: { _id: 1, a: 1 } }, settings).doc).toEqual({ _id: 1, a: 1 });
    expect(applyUpdate({}, { $set: { _id: 9 } }, { ...settings, inserting: true }).doc).toEqual({ _id: 9 });
  });

  test('unknown operators are rejected like mongod does', () => {
    expect(() => applyUpdate({ _id: 1 }, { $frob: { a: 1 } }, settings)).toThrow(/Unknown modifier: \$frob/);
  });
});
