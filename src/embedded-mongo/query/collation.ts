import type { Document } from 'bson';
import type { CollationSpec } from './mingo-options';
import { CommandError } from '../commands/command-error';

/** A request's collation, reduced to what this server applies. */
export interface Collation {
  readonly spec: CollationSpec;
  /** 1: ignore case and accents, 2: ignore case, 3: exact. */
  readonly strength: number;
}

/** Accepts the wire `collation` document; `simple` (binary comparison) means no collation. */
export function parseCollation(raw: unknown): Collation | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== 'object' || Array.isArray(raw)) throw new CommandError('TypeMismatch', 'collation must be an object');
  const doc = raw as Document;
  if (typeof doc.locale !== 'string') throw new CommandError('BadValue', "collation must contain a 'locale' string");
  if (doc.locale === 'simple') return undefined;
  // ICU accepts en_US; Intl (used by mingo) wants BCP-47 en-US.
  const locale = doc.locale.replace(/_/g, '-');
  const strength = typeof doc.strength === 'number' ? doc.strength : 3;
  const spec: CollationSpec = {
    locale,
    strength: Math.min(Math.max(strength, 1), 3) as 1 | 2 | 3,
    ...(typeof doc.numericOrdering === 'boolean' ? { numericOrdering: doc.numericOrdering } : {}),
    ...(typeof doc.caseLevel === 'boolean' ? { caseLevel: doc.caseLevel } : {}),
    ...(doc.caseFirst === 'upper' || doc.caseFirst === 'lower' ? { caseFirst: doc.caseFirst } : {}),
  };
  try {
    new Intl.Collator(locale);
  } catch {
    throw new CommandError('BadValue', `unsupported collation locale: ${doc.locale}`);
  }
  return { spec, strength };
}

/** Whether equality under this collation differs from binary equality. */
export function foldsStrings(collation: Collation | undefined): collation is Collation {
  return collation !== undefined && collation.strength < 3;
}

/**
 * Maps a string to a representative of its equivalence class under the collation, so that
 * equality and range matching can run on folded copies (an approximation of ICU's rules).
 */
export function foldString(value: string, strength: number): string {
  const lower = value.toLowerCase();
  return strength <= 1 ? lower.normalize('NFD').replace(/\p{Mn}/gu, '') : lower;
}

/** Deep copy with every string folded; `$regex` patterns are kept verbatim. */
export function foldValue(value: unknown, strength: number): unknown {
  if (typeof value === 'string') return foldString(value, strength);
  if (Array.isArray(value)) return value.map((item) => foldValue(item, strength));
  if (value === null || typeof value !== 'object' || value.constructor !== Object) return value;
  const out: Document = {};
  for (const [key, item] of Object.entries(value as Document)) out[key] = key === '$regex' ? item : foldValue(item, strength);
  return out;
}

/** A string comparator honouring locale, strength and numeric ordering. */
export function collatorFor(collation: Collation): Intl.Collator {
  return new Intl.Collator(collation.spec.locale, {
    sensitivity: collation.strength === 1 ? 'base' : collation.strength === 2 ? 'accent' : 'variant',
    numeric: collation.spec.numericOrdering ?? false,
    caseFirst: collation.spec.caseFirst === 'upper' || collation.spec.caseFirst === 'lower' ? collation.spec.caseFirst : 'false',
  });
}
