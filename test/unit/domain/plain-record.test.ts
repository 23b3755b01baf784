import { setFlagsFromString } from 'node:v8';
import { copyWith, withoutFields } from '../../../src/domain/plain-record';

// V8's own test of whether two objects share a hidden class; natives syntax is read when the
// function below is compiled, so the flag is set first.
setFlagsFromString('--allow-natives-syntax');
const shareHiddenClass = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;

/** How many of `copies` consecutive copies share the hidden class of the copy before them. */
function copiesSharingHiddenClass(copy: (index: number) => object, copies = 100): number {
  let previous = copy(0);
  let shared = 0;
  for (let index = 1; index < copies; index++) {
    const next = copy(index);
    if (shareHiddenClass(next, previous)) shared++;
    previous = next;
  }
  return shared;
}

describe('copyWith', () => {
  it('copies the source with the additions, the additions winning, and leaves the source alone', () => {
    const source = { provider: 'rest', user: { id: 1 }, query: { a: 1 } };
    const copy = copyWith(source, { user: { id: 2 }, authenticated: true });
    expect(copy).toEqual({ provider: 'rest', user: { id: 2 }, query: { a: 1 }, authenticated: true });
    expect(source).toEqual({ provider: 'rest', user: { id: 1 }, query: { a: 1 } });
    expect(Object.keys(copy)).toEqual(['provider', 'user', 'query', 'authenticated']);
  });

  it('keeps an own __proto__ key a plain key, as a spread does', () => {
    const parsed = JSON.parse('{"__proto__": {"polluted": true}, "text": "hi"}') as object;
    const copy = copyWith(parsed, { read: false }) as Record<string, unknown>;
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.hasOwn(copy, '__proto__')).toBe(true);
    expect((copy as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it(
    'is typed as the spread: an optional addition may leave the source ' +
      'value, an index signature replaces no named key',
    () => {
      // The annotations are the test as much as the expectations: the types must compile.
      const defaults = { limit: 5, name: 'a' };
      const overrides: Partial<typeof defaults> = { limit: 7 };
      const merged: { limit: number; name: string } = copyWith(defaults, overrides);
      expect(merged).toEqual({ limit: 7, name: 'a' });
      const credentials: { strategy: string; [key: string]: unknown } = { strategy: 'jwt', accessToken: 't' };
      const verified: { strategy: string; payload: { sub: string } } = copyWith(credentials, {
        payload: { sub: 'u1' },
      });
      expect(verified).toEqual({ strategy: 'jwt', accessToken: 't', payload: { sub: 'u1' } });
      const options: { paginate: boolean; [key: string]: unknown } = copyWith(
        { paginate: true },
        {} as Record<string, unknown>,
      );
      expect(options.paginate).toBe(true);
    },
  );

  it(
    'gives copies of same-shaped sources one hidden class (on Node 20 a ' +
      'spread followed by new keys gives each its own)',
    () => {
      const source = (index: number) => ({ provider: 'rest', query: { index }, ip: '127.0.0.1' });
      expect(copiesSharingHiddenClass((index) => copyWith(source(index), { user: index, authenticated: true }))).toBe(
        99,
      );
    },
  );
});

describe('withoutFields', () => {
  it('copies a record without the named fields, given as an array, a set or any iterable', () => {
    const record = { _id: 1, name: 'a', password: 'x', token: 't' };
    expect(withoutFields(record, ['password'])).toEqual({ _id: 1, name: 'a', token: 't' });
    expect(withoutFields(record, new Set(['password', 'token']))).toEqual({ _id: 1, name: 'a' });
    expect(withoutFields(record, new Map([['token', 1]]).keys())).toEqual({ _id: 1, name: 'a', password: 'x' });
    expect(record).toEqual({ _id: 1, name: 'a', password: 'x', token: 't' });
  });

  it('keeps key order, an own __proto__ as a plain key and enumerable symbols, as a spread does', () => {
    const marker = Symbol('marker');
    const parsed = JSON.parse('{"b": 1, "__proto__": {"polluted": true}, "a": 2, "secret": 3}') as Record<
      string | symbol,
      unknown
    >;
    parsed[marker] = 'kept';
    const copy = withoutFields(parsed, ['secret']) as Record<string | symbol, unknown>;
    expect(Object.keys(copy)).toEqual(['b', '__proto__', 'a']);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(copy[marker]).toBe('kept');
  });

  it('gives copies of same-shaped records one fast hidden class', () => {
    const isFast = new Function('a', 'return %HasFastProperties(a)') as (a: object) => boolean;
    const record = (index: number) => ({
      _id: index,
      email: 'a@example.com',
      name: 'Ann',
      password: 'hash',
      createdAt: index,
    });
    expect(copiesSharingHiddenClass((index) => withoutFields(record(index), ['password']))).toBe(99);
    expect(isFast(withoutFields(record(1), ['password']))).toBe(true);
  });
});
