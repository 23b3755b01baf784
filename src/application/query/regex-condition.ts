import safeRegex from 'safe-regex2';
import { BadRequest } from '../../domain/errors';

/** Longer patterns are refused: matching cost grows with the pattern, and no search needs more. */
export const MAX_REGEX_LENGTH = 1024;
/** PCRE's flags that MongoDB accepts and that change no more than how a pattern matches. */
const REGEX_FLAGS = /^[imsx]*$/;

/**
 * Checks a condition holding `$regex` and/or `$options` (from a client: the operators must have been
 * allowed by the service). The pattern must be a string of at most MAX_REGEX_LENGTH characters that
 * compiles, with no nested repetition such as `(a+)+`, which backtracks for exponential time on
 * every adapter (the memory store and the embedded server run it on the application's own thread).
 * That check is a heuristic (star height, as in safe-regex2): it refuses some safe patterns and
 * cannot catch every slow one. A RegExp instance can only come from server code and is trusted.
 */
export function checkRegexCondition(condition: Record<string, unknown>): void {
  const pattern = condition.$regex;
  const flags = condition.$options;
  if (pattern instanceof RegExp) return;
  if (pattern === undefined) throw new BadRequest('$options needs $regex beside it');
  if (typeof pattern !== 'string') throw new BadRequest('$regex must be a string');
  if (pattern.length > MAX_REGEX_LENGTH) throw new BadRequest(`$regex must be at most ${MAX_REGEX_LENGTH} characters`);
  if (
    flags !== undefined &&
    (typeof flags !== 'string' || !REGEX_FLAGS.test(flags) || new Set(flags).size !== flags.length)
  ) {
    throw new BadRequest('$options may only hold the flags i, m, s and x');
  }
  try {
    // JavaScript has no `x` flag; the pattern's syntax is the same without it.
    new RegExp(pattern, (flags ?? '').replace('x', ''));
  } catch {
    throw new BadRequest('$regex is not a valid regular expression', { $regex: pattern });
  }
  if (!safeRegex(pattern)) {
    throw new BadRequest(
      '$regex repeats a repetition (such as (a+)+) or has too many repetitions; such patterns can take exponential ' +
        'time',
      { $regex: pattern },
    );
  }
}
