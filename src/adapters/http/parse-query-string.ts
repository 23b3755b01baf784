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
