import { trySimpleUpdate } from '../../../src/embedded-mongo/update/simple-update';

describe('trySimpleUpdate', () => {
  test('applies $set, $unset and $inc on object paths, creating missing parents', () => {
    const doc = { _id: 1, a: { b: 1 }, n: 2, gone: true };
    expect(
      trySimpleUpdate(doc, { $set: { 'a.c': [1], 'x.y': 'z' }, $inc: { n: 3, fresh: 1 }, $unset: { gone: '' } }),
    ).toBe(true);
    expect(doc).toEqual({ _id: 1, a: { b: 1, c: [1] }, n: 5, x: { y: 'z' }, fresh: 1 });
  });

  test.each([
    ['an array on the path', { list: [{ a: 1 }] }, { $set: { 'list.0.a': 2 } }],
    ['a positional operator', { list: [1] }, { $set: { 'list.$': 2 } }],
    ['overlapping paths', { a: { b: 1 } }, { $set: { a: {} }, $inc: { 'a.b': 1 } }],
    ['another operator', { list: [] }, { $push: { list: 1 } }],
  ])('leaves %s to the general updater, untouched', (_name, doc, modifier) => {
    const before = JSON.stringify(doc);
    expect(trySimpleUpdate(doc, modifier)).toBe(false);
    expect(JSON.stringify(doc)).toBe(before);
  });

  test.each([['$inc'], ['$mul']])(
    '%s on a field holding no number is a TypeMismatch, leaving the document untouched',
    (operator) => {
      const doc = { n: 'x', m: 1 };
      expect(() => trySimpleUpdate(doc, { $inc: { m: 1 }, [operator]: { n: 2 } })).toThrow(
        expect.objectContaining({ codeName: 'TypeMismatch' }),
      );
      expect(doc).toEqual({ n: 'x', m: 1 });
    },
  );
});
