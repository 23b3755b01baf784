import type { IParseOptions, IStringifyOptions } from 'qs';
import { copyWith } from '../../domain/plain-record';

/**
 * Limits of a query string. Chosen so every query the filters accept (nested `$or`/`$and`,
 * `$in` lists, `$sort`, `$select`) fits, while hostile strings are refused rather than truncated.
 */
export const QUERY_STRING_LIMITS = Object.freeze({
  /** Bracket levels below the top-level key (`a[b][c]` is 2). */
  depth: 10,
  /** Elements of one array (`$in[0]` ... `$in[199]`, or repeated keys). */
  arrayLimit: 200,
  /** `key=value` pairs in the whole string. */
  parameterLimit: 1000,
});

/**
 * The `qs.parse` options of the HTTP adapter (and of anything parsing what the REST client
 * sends). Every limit throws instead of silently reshaping the query; `plainObjects` keeps keys
 * such as `constructor` visible so the adapter can refuse them (qs would drop them quietly).
 */
export const QUERY_PARSE_OPTIONS: Readonly<IParseOptions> = Object.freeze(
  copyWith(QUERY_STRING_LIMITS, {
    strictDepth: true,
    throwOnLimitExceeded: true,
    allowPrototypes: false,
    plainObjects: true,
    allowDots: false,
    comma: false,
    parseArrays: true,
    duplicates: 'combine',
    ignoreQueryPrefix: false,
    charset: 'utf-8',
  } satisfies IParseOptions),
);

/** The `qs.stringify` options of the REST client: indices keep arrays and `$or` branches unambiguous. */
export const QUERY_STRINGIFY_OPTIONS: Readonly<IStringifyOptions> = Object.freeze({
  arrayFormat: 'indices',
  allowDots: false,
  encode: true,
  encodeValuesOnly: false,
  charset: 'utf-8',
  format: 'RFC3986',
});
