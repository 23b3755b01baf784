/**
 * An object made by a literal, JSON or `Object.create(null)`: not an array, not a class instance (Date, ObjectId, ...).
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** A plain object with string keys: not null, not an array. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A copy of `record` without `fields` (hidden fields, fields a client may not set), made of the
 * fields kept: deleting from a full copy would turn it into a dictionary object, slower to read and
 * to serialize. Like a spread, an own `__proto__` stays a plain key and enumerable symbols are kept.
 */
export function withoutFields(record: object, fields: Iterable<string>): Record<string, unknown> {
  const left: ReadonlySet<string> | readonly string[] =
    fields instanceof Set || Array.isArray(fields) ? fields : [...fields];
  const leftOut = (key: string) => ('has' in left ? left.has(key) : left.includes(key));
  const source = record as Record<string | symbol, unknown>;
  const copy: Record<string | symbol, unknown> = {};
  for (const key of Object.keys(source)) {
    if (leftOut(key)) continue;
    if (key === '__proto__')
      Object.defineProperty(copy, key, { value: source[key], enumerable: true, writable: true, configurable: true });
    else copy[key] = source[key];
  }
  for (const symbol of Object.getOwnPropertySymbols(source))
    if (Object.prototype.propertyIsEnumerable.call(source, symbol)) copy[symbol] = source[symbol];
  return copy as Record<string, unknown>;
}

/**
 * `{ ...source, ...additions }` as a copy whose hidden class V8 shares between calls. In Node 20's
 * V8 an object literal that starts with a spread and then adds keys gets a hidden class of its own
 * on every call, so each later read of the copy misses its inline cache (a copy of a call's params
 * read five times: 1.8 µs against 0.15 µs); a literal that starts from an empty spread does not.
 * Keys are defined as a spread defines them (an own `__proto__` stays a plain key). It pays where
 * the copy flows through every call (params, answered records); no lint rule asks for it elsewhere,
 * where a spread reads as well (bench/README.md, "Hidden classes").
 */
export function copyWith<T extends object, A extends object>(source: T, additions: A): CopiedWith<T, A> {
  return { ...{}, ...source, ...additions } as CopiedWith<T, A>;
}

/**
 * The type of `{ ...source, ...additions }`: a key the additions surely have replaces the source's;
 * an optional one may leave the source's value, and an index signature replaces no named key.
 */
export type CopiedWith<T, A> = {
  [K in keyof T as K extends SureKeys<A> ? never : K]: K extends NamedKeys<A>
    ? T[K] | Exclude<A[K & keyof A], undefined>
    : T[K];
} & A;

/** The keys `A` names (not those of an index signature). */
type NamedKeys<A> = keyof {
  [K in keyof A as string extends K ? never : number extends K ? never : symbol extends K ? never : K]: A[K];
};

/** The keys `A` names and always has (not optional ones). */
type SureKeys<A> = { [K in NamedKeys<A>]-?: object extends Pick<A, K> ? never : K }[NamedKeys<A>];
