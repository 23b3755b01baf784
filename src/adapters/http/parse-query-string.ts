import qs from 'qs';
import { QUERY_PARSE_OPTIONS } from '../../application/query/query-string-options';
import { FORBIDDEN_KEYS } from '../../application/query/query-limits';
import { BadRequest } from '../../domain/errors';

/**
 * Parses a raw query string (without the `?`) once, with the shared limits. Any exceeded limit,
 * and any `__proto__` / `constructor` / `prototype` key, is a 400; the result is made of ordinary
 * objects and arrays whose values are all strings.
 */
export function parseQueryString(raw: string): Record<string, unknown> {
  if (raw === '') return {};
  const flat = parseFlatQueryString(raw);
  if (flat !== undefined) return flat;
  // qs drops `__proto__` keys silently even with plainObjects, so look for them in the raw keys.
  if (hasProtoKey(raw)) throw new BadRequest('Invalid query parameter __proto__');
  let parsed: Record<string, unknown>;
  try {
    parsed = qs.parse(raw, QUERY_PARSE_OPTIONS) as Record<string, unknown>;
  } catch (error: unknown) {
    throw new BadRequest(`Invalid query string: ${error instanceof Error ? error.message : 'limit exceeded'}`);
  }
  return toOrdinaryObject(parsed);
}

/**
 * The common case (`$limit=10&text=hi`): no brackets, escapes or `+`, each key once. Such a string
 * means the same to qs (its limits cannot be exceeded but by the number of pairs, checked here), so
 * it is split directly, with no intermediate objects. Anything else returns undefined, for qs.
 */
function parseFlatQueryString(raw: string): Record<string, unknown> | undefined {
  if (/[[\]%+]/.test(raw)) return undefined;
  const query: Record<string, unknown> = {};
  let start = 0;
  let pairs = 0;
  while (start <= raw.length) {
    let end = raw.indexOf('&', start);
    if (end === -1) end = raw.length;
    if (++pairs > QUERY_PARSE_OPTIONS.parameterLimit!) return undefined;
    const equals = raw.indexOf('=', start);
    const keyEnd = equals === -1 || equals > end ? end : equals;
    // An empty pair or key, or a key seen before (qs combines those): qs decides.
    if (keyEnd === start) return undefined;
    const key = raw.slice(start, keyEnd);
    if (Object.hasOwn(query, key)) return undefined;
    if (FORBIDDEN_KEYS.has(key)) throw new BadRequest(`Invalid query parameter ${key}`);
    query[key] = keyEnd === end ? '' : raw.slice(keyEnd + 1, end);
    start = end + 1;
  }
  return query;
}

function hasProtoKey(raw: string): boolean {
  if (!raw.includes('%') && !raw.includes('proto')) return false;
  for (const pair of raw.split('&')) {
    const equals = pair.indexOf('=');
    const key = decodeLoosely(equals === -1 ? pair : pair.slice(0, equals));
    if (key.includes('__proto__')) return true;
  }
  return false;
}

function decodeLoosely(text: string): string {
  const spaced = text.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}

/** Copies qs's null-prototype objects into ordinary ones; recursion is bounded by qs `strictDepth`. */
function toOrdinaryObject(source: Record<string, unknown>): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(source)) {
    if (FORBIDDEN_KEYS.has(key)) throw new BadRequest(`Invalid query parameter ${key}`);
    copy[key] = toOrdinaryValue(source[key]);
  }
  return copy;
}

function toOrdinaryValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toOrdinaryValue);
  if (typeof value === 'object' && value !== null) return toOrdinaryObject(value as Record<string, unknown>);
  return value;
}
