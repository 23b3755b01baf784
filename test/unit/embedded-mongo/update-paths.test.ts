import { assertNoConflictingPaths, assertUpdateTargets } from '../../../src/embedded-mongo/update/check-update-paths';
import { expandPositionalPaths } from '../../../src/embedded-mongo/update/expand-positional';

describe('update paths as mongod reads them', () => {
  test(
    'positional parts count as field names: siblings under `$` or `$[id]` do ' +
      'not conflict, a path and its prefix do (code 40)',
    () => {
      expect(() =>
        assertNoConflictingPaths({ $set: { 'c.$.a': 1, 'c.$.b': 2 }, $inc: { 'c.$[x].n': 1, 'c.$[x].m': 1 } }),
      ).not.toThrow();
      expect(() => assertNoConflictingPaths({ $set: { a: 1 }, $unset: { 'a.b': '' } })).toThrow(
        expect.objectContaining({ code: 40, codeName: 'ConflictingUpdateOperators' }),
      );
      expect(() => assertNoConflictingPaths({ $rename: { a: 'b' }, $set: { b: 1 } })).toThrow(
        expect.objectContaining({ code: 40 }),
      );
    },
  );

  test('`$`, `$[]` and `$[id]` become the concrete paths of the document before the update', () => {
    const doc = {
      _id: 1,
      c: [
        { k: 1, tags: ['x'] },
        { k: 2, tags: ['y', 'z'] },
      ],
    };
    expect(expandPositionalPaths(doc, { $set: { 'c.$.a': 1, 'c.$.b': 2 } }, { filter: { 'c.k': 2 } })).toEqual({
      $set: { 'c.1.a': 1, 'c.1.b': 2 },
    });
    expect(
      expandPositionalPaths(
        doc,
        { $set: { 'c.$[].tags.$[t]': 'w' } },
        { filter: {}, arrayFilters: [{ t: { $ne: 'x' } }] },
      ),
    ).toEqual({ $set: { 'c.1.tags.0': 'w', 'c.1.tags.1': 'w' } });
    expect(
      expandPositionalPaths(
        doc,
        { $inc: { 'c.$[e].k': 1 } },
        { filter: {}, arrayFilters: [{ $or: [{ 'e.k': 1 }, { 'e.k': 3 }] }] },
      ),
    ).toEqual({ $inc: { 'c.0.k': 1 } });
    expect(() => expandPositionalPaths(doc, { $set: { 'missing.$[].a': 1 } }, { filter: {} })).toThrow(
      "The path 'missing' must exist in the document in order to apply array updates.",
    );
    expect(() => expandPositionalPaths(doc, { $set: { 'c.$.a': 1 } }, { filter: { _id: 1 } })).toThrow(
      'The positional operator did not find the match needed from the query.',
    );
    expect(() => expandPositionalPaths(doc, { $set: { 'c.$.tags.$': 1 } }, { filter: { 'c.k': 2 } })).toThrow(
      "Too many positional (i.e. '$') elements found in path 'c.$.tags.$'",
    );
  });

  test(
    'creating a field inside an array or a scalar is PathNotViable ' + '(28); $push / $addToSet need an array (2)',
    () => {
      const doc = { _id: 1, a: [1, 2], s: 'text', o: { n: null } };
      expect(() => assertUpdateTargets(doc, { $set: { 'a.b': 1 } })).toThrow(
        expect.objectContaining({ code: 28, message: "Cannot create field 'b' in element {a: [ 1, 2 ]}" }),
      );
      expect(() => assertUpdateTargets(doc, { $inc: { 's.n': 1 } })).toThrow(
        expect.objectContaining({ code: 28, message: 'Cannot create field \'n\' in element {s: "text"}' }),
      );
      expect(() => assertUpdateTargets(doc, { $set: { 'o.n.x': 1 } })).toThrow(expect.objectContaining({ code: 28 }));
      expect(() => assertUpdateTargets(doc, { $push: { s: 1 } })).toThrow(
        expect.objectContaining({
          code: 2,
          message: "The field 's' must be an array but is of type string in document {_id: 1}",
        }),
      );
      expect(() => assertUpdateTargets(doc, { $addToSet: { o: 1 } })).toThrow(expect.objectContaining({ code: 2 }));
      expect(() =>
        assertUpdateTargets(doc, {
          $set: { 'a.5': 1, 'new.path': 1 },
          $unset: { 's.x': '' },
          $push: { a: 3, fresh: 1 },
        }),
      ).not.toThrow();
    },
  );
});
