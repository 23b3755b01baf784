import { cloneRecord, copyStoredRecord } from '../../../../src/adapters/memory/clone-record';

// The copy a store keeps and the copy a caller reads obey the same rules.
describe.each([
  ['cloneRecord', cloneRecord],
  ['copyStoredRecord', copyStoredRecord],
])('%s', (_name, copyOf: <T>(value: T) => T) => {
  it('deep-copies plain objects and arrays', () => {
    const original = { a: { b: [1, { c: 2 }] } };
    const copy = copyOf(original);
    expect(copy).toEqual(original);
    expect(copy.a).not.toBe(original.a);
    expect(copy.a.b).not.toBe(original.a.b);
    expect(copy.a.b[1]).not.toBe(original.a.b[1]);
    (copy.a.b[1] as { c: number }).c = 3;
    expect(original.a.b[1]).toEqual({ c: 2 });
  });

  it('keeps class instances (Date, ObjectId-like) as they are', () => {
    class Id {
      constructor(readonly hex: string) {}
    }
    const when = new Date(1);
    const id = new Id('x');
    const copy = copyOf({ when, id });
    expect(copy.when).toBe(when);
    expect(copy.id).toBe(id);
  });

  it('copies null-prototype objects and leaves primitives alone', () => {
    const bare = Object.assign(Object.create(null), { a: 1 });
    expect(copyOf(bare)).toEqual({ a: 1 });
    expect(Object.getPrototypeOf(copyOf(bare))).toBe(Object.prototype);
    expect(copyOf(null)).toBeNull();
    expect(copyOf('s')).toBe('s');
  });

  it('keeps an own __proto__ field a field, also when it holds an object to copy', () => {
    const original = JSON.parse('{"__proto__": {"admin": true}, "name": "x"}') as Record<string, unknown>;
    const copy = copyOf(original);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.hasOwn(copy, '__proto__')).toBe(true);
    expect((copy as { admin?: boolean }).admin).toBeUndefined();
    expect(Object.keys(copy)).toEqual(['__proto__', 'name']);
    expect(Object.getOwnPropertyDescriptor(copy, '__proto__')?.value).not.toBe(
      Object.getOwnPropertyDescriptor(original, '__proto__')?.value,
    );
  });

  it('copies only own fields, even when Object.prototype has an enumerable one', () => {
    Object.defineProperty(Object.prototype, 'polluted', {
      value: { admin: true },
      enumerable: true,
      configurable: true,
      writable: true,
    });
    try {
      const copy = copyOf({ name: 'x', nested: { a: 1 } });
      expect(Object.keys(copy)).toEqual(['name', 'nested']);
      expect(Object.keys(copy.nested)).toEqual(['a']);
    } finally {
      delete (Object.prototype as { polluted?: unknown }).polluted;
    }
  });
});
