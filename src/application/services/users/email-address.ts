import { BadRequest } from '../../../domain/errors';
import { classValidator } from '../../validation/validation-libraries';

/**
 * Characters that change nothing a reader sees, or reorder what they see: format characters
 * (U+200B zero width space, U+00AD soft hyphen, U+2060 word joiner, U+202E right-to-left override,
 * ...), controls, separators and spaces of any kind, and the other default-ignorable code points
 * (variation selectors, Hangul fillers, combining grapheme joiner). Two addresses that differ only
 * by these look the same, so none may appear in a stored address.
 */
const INVISIBLE = /[\p{Cf}\p{Cc}\p{Z}\p{Default_Ignorable_Code_Point}\p{Bidi_Control}]/u;

const MAX_LENGTH = 254;

/**
 * The one spelling of an address: compatibility-normalized (NFKC folds full-width and other
 * look-alike forms into their plain letters), trimmed and lower-cased. Used where addresses are
 * stored and where they are looked up, so both meet.
 */
export function normalizeEmailAddress(value: unknown): unknown {
  return typeof value === 'string' ? value.normalize('NFKC').trim().toLowerCase() : value;
}

/**
 * Refuses a normalized address that could pass for another one: invisible or bidirectional
 * characters, a quoted local part (`"karen"@example.com` would be a second `karen`), or text that
 * is no longer one valid address after normalization (`a﹫b@example.com` becomes two `@`).
 */
export function assertDistinctEmailAddress(address: unknown): void {
  if (typeof address !== 'string') return;
  const problem = INVISIBLE.test(address)
    ? 'email must not contain invisible, formatting or control characters'
    : address.includes('"') || address.includes('\\')
      ? 'email must not have a quoted or escaped local part'
      : address.length > MAX_LENGTH || !classValidator().isEmail(address)
        ? 'email must be an email'
        : undefined;
  if (problem !== undefined) throw new BadRequest('Invalid data', { errors: { email: [problem] } });
}
