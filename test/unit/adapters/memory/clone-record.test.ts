import { cloneRecord } from '../../../../src/adapters/memory/clone-record';

describe('cloneRecord', () => {
  it('deep-copies plain objects and arrays', () => {
    const original = { a: { b: [1, { c: 2 }] } };
    const copy = cloneRecord(original);
    expect(copy).toEqual(original);
    expect(copy.a).not.toBe(original.a);
    expect(copy.a.b[1]).not.toBe(original.a.b[1]);
  });

  it('keeps class instances (Date, ObjectId-like) as they are', () => {
    class Id {
      constructor(readonly hex: string) {}
    }
    const when = new Date(1);
    const id = new Id('x');
    const copy = cloneRecord({ when, id });
    expect(copy.when).toBe(when);
    expect(copy.id).toBe(id);
  });

  it('copies null-prototype objects and leaves primitives alone', () => {
    const bare = Object.assign(Object.create(null), { a: 1 });
    expect(cloneRecord(bare)).toEqual({ a: 1 });
    expect(cloneRecord(null)).toBeNull();
    expect(cloneRecord('s')).toBe('s');
  });

  it('keeps an own __proto__ field a field, and copies only own fields', () => {
    const original = JSON.parse('{"__proto__": {"admin": true}, "name": "x"}') as Record<string, unknown>;
    const copy = cloneRecord(original);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.hasOwn(copy, '__proto__')).toBe(true);
    expect((copy as { admin?: boolean }).admin).toBeUndefined();
    expect(Object.keys(copy)).toEqual(['__proto__', 'name']);
  });
});
