import type { Document } from 'bson';
import { isBsonNumber, numberValue } from './bson-numbers';
import { setOwnField } from './own-field';

/** The raw object each converted view object stands for, so `$type` can see the real types. */
const rawOfView = new WeakMap<object, unknown>();
/**
 * Also kept on each view under a symbol: mingo's stages copy documents with object spread
 * (`$unwind`, `$lookup`, `$addFields`), which carries own symbol properties along, so a
 * reshaped document still leads to the typed values it was made from (see typed-arithmetic.ts).
 * Serialisation and mingo's own key walks ignore symbol keys.
 */
export const RAW_SOURCE = Symbol('raw source');
/** Cached views of stored documents (they are never mutated, so a view stays valid). */
const plainViews = new WeakMap<Document, Document>();

export type StringFold = (value: string) => string;

/**
 * mingo compares plain JS values only: a `Long` or `Double` wrapper never equals the number 5.
 * This returns the value with every numeric wrapper replaced by its number (and strings folded
 * when a collation asks for it), sharing unchanged subtrees; without a fold it is cached per document.
 */
export function matchView<T>(value: T, fold?: StringFold): T {
  if (fold) return convert(value, fold) as T;
  if (value === null || typeof value !== 'object' || (value.constructor !== Object && !Array.isArray(value)))
    return convert(value) as T;
  const cached = plainViews.get(value as Document);
  if (cached) return cached as T;
  const view = convert(value) as Document;
  plainViews.set(value as Document, view);
  return view as T;
}

/** The raw object behind a view (the object itself when nothing was converted). */
export function rawOf(view: unknown): unknown {
  return view !== null && typeof view === 'object' ? (rawOfView.get(view) ?? view) : view;
}

function convert(value: unknown, fold?: StringFold): unknown {
  if (typeof value === 'string') return fold ? fold(value) : value;
  if (value === null || typeof value !== 'object') return value;
  if (isBsonNumber(value)) return numberValue(value);
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item = convert(value[i], fold);
      if (item !== value[i]) (copy ??= value.slice())[i] = item;
    }
    return register(copy, value);
  }
  if (value.constructor !== Object) return value;
  let copy: Document | undefined;
  for (const key of Object.keys(value)) {
    const item = (value as Document)[key];
    // A `$regex` pattern is matched against folded text as written; expressions name fields.
    const converted = key === '$regex' || (fold && (key === '$expr' || key === '$where')) ? item : convert(item, fold);
    if (converted !== item) setOwnField((copy ??= { ...value }), key, converted);
  }
  return register(copy, value);
}

function register(copy: object | undefined, raw: object): object {
  if (!copy) return raw;
  rawOfView.set(copy, raw);
  if (!Array.isArray(copy)) (copy as Record<symbol, unknown>)[RAW_SOURCE] = raw;
  return copy;
}

/**
 * The typed document a view, or a copy mingo made of one, came from. Its fields may since have
 * been replaced, so a value read through it must be checked against the plain one.
 */
export function rawSourceOf(view: unknown): unknown {
  if (view === null || typeof view !== 'object') return view;
  return rawOfView.get(view) ?? (view as Record<symbol, unknown>)[RAW_SOURCE] ?? view;
}
