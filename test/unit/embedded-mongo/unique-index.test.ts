import { UniqueIndex } from '../../../src/embedded-mongo/storage/unique-index';

describe('UniqueIndex', () => {
  test('array values are indexed per element (multikey)', () => {
    const index = new UniqueIndex({ v: 2, key: { tags: 1 }, name: 'tags_1', unique: true });
    index.add({ tags: ['a', 'b'] }, 'one');
    expect(index.findConflict({ tags: 'b' }, 'two')).toBe('one');
    expect(index.findConflict({ tags: ['b'] }, 'one')).toBeUndefined();
    expect(index.findConflict({ tags: 'c' }, 'two')).toBeUndefined();
  });

  test('sparse and partial indexes skip documents outside them', () => {
    const sparse = new UniqueIndex({ v: 2, key: { e: 1 }, name: 'e_1', unique: true, sparse: true });
    sparse.add({ x: 1 }, 'one');
    expect(sparse.findConflict({ y: 1 }, 'two')).toBeUndefined();
    const partial = new UniqueIndex({
      v: 2,
      key: { e: 1 },
      name: 'e_1',
      unique: true,
      partialFilterExpression: { active: true },
    });
    partial.add({ e: 1, active: false }, 'one');
    expect(partial.findConflict({ e: 1, active: true }, 'two')).toBeUndefined();
  });

  test('remove frees the key', () => {
    const index = new UniqueIndex({ v: 2, key: { a: 1, b: 1 }, name: 'ab', unique: true });
    index.add({ a: 1, b: 2 }, 'one');
    expect(index.findConflict({ a: 1, b: 2 }, 'two')).toBe('one');
    expect(index.keyValueOf({ a: 1 })).toEqual({ a: 1, b: null });
    index.remove({ a: 1, b: 2 }, 'one');
    expect(index.findConflict({ a: 1, b: 2 }, 'two')).toBeUndefined();
  });
});
