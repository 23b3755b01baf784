import type { Document } from 'bson';
import type { Query } from 'mingo';
import { CommandError } from '../base/command-error';

/** mingo's collation option type, reached through its public constructor. */
export type CollationSpec = NonNullable<NonNullable<ConstructorParameters<typeof Query>[1]>['collation']>;

/** A request's collation, reduced to what this server applies. */
export interface Collation {
  readonly spec: CollationSpec;
  /** 1: ignore case and accents, 2: ignore case, 3: exact. */
  readonly strength: number;
}

/** Accepts the wire `collation` document; `simple` (binary comparison) means no collation. */
export function parseCollation(raw: unknown): Collation | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== 'object' || Array.isArray(raw))
    throw new CommandError('TypeMismatch', 'collation must be an object');
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

/** Whether equality or order under this collation differs from binary comparison of the strings. */
export function foldsStrings(collation: Collation | undefined): collation is Collation {
  return collation !== undefined && (collation.strength < 3 || collation.spec.numericOrdering === true);
}

/** Digit runs padded so that folded strings order numerically ('9' < '10'), for numericOrdering. */
const DIGIT_WIDTH = 24;

/**
 * The fold that maps strings to comparable representatives under the collation (undefined when
 * binary comparison already agrees): used to run mingo's equality and range matching.
 */
export function stringFoldFor(collation: Collation | undefined): ((value: string) => string) | undefined {
  if (!foldsStrings(collation)) return undefined;
  const { strength } = collation;
  const numeric = collation.spec.numericOrdering === true;
  return (value) => {
    const folded = strength < 3 ? foldString(value, strength) : value;
    return numeric
      ? folded.replace(/\d+/g, (digits) => digits.replace(/^0+(?=\d)/, '').padStart(DIGIT_WIDTH, '0'))
      : folded;
  };
}

/** Two collations compare strings identically (both absent counts as equal). */
export function sameCollation(a: Collation | undefined, b: Collation | undefined): boolean {
  if (!a || !b) return a === b;
  return JSON.stringify(a.spec) === JSON.stringify(b.spec) && a.strength === b.strength;
}

/**
 * Maps a string to a representative of its equivalence class under the collation, so that
 * equality and range matching can run on folded copies (an approximation of ICU's rules).
 */
export function foldString(value: string, strength: number): string {
  const lower = value.toLowerCase();
  return strength <= 1 ? lower.normalize('NFD').replace(/\p{Mn}/gu, '') : lower;
}

/** A string comparator honouring locale, strength and numeric ordering. */
export function collatorFor(collation: Collation): Intl.Collator {
  return new Intl.Collator(collation.spec.locale, {
    sensitivity: collation.strength === 1 ? 'base' : collation.strength === 2 ? 'accent' : 'variant',
    numeric: collation.spec.numericOrdering ?? false,
    caseFirst:
      collation.spec.caseFirst === 'upper' || collation.spec.caseFirst === 'lower' ? collation.spec.caseFirst : 'false',
  });
}
