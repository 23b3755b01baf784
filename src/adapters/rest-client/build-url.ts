import { BadRequest } from '../../domain/errors';
import type { NullableId } from '../../domain/id';
import { mapRoutePlaceholders } from '../../application/app/route-placeholders';

/**
 * The base a client resolves service paths against: the given URL without trailing slashes, or
 * (no URL given) the page's origin in a browser, else '' so URLs stay root-relative.
 */
export function resolveBaseUrl(baseUrl?: string): string {
  if (baseUrl !== undefined && baseUrl !== null) return String(baseUrl).replace(/\/+$/, '');
  const origin = (globalThis as { location?: { origin?: unknown } }).location?.origin;
  return typeof origin === 'string' && origin !== 'null' ? origin : '';
}

/** A service path as stored by the app: no leading or trailing slashes. */
export function servicePath(name: string): string {
  return String(name).replace(/^\/+|\/+$/g, '');
}

/**
 * Fills `:name` segments of a service path from `route`, percent-encoded. Only the service path
 * is filled, never the base URL (its `:port` is not a placeholder). A missing value fails before
 * any request instead of sending a literal `:name`.
 */
export function fillRoute(path: string, route: Record<string, unknown> = {}): string {
  return mapRoutePlaceholders(path, (key) => {
    const value = Object.hasOwn(route, key) ? route[key] : undefined;
    if (value === undefined || value === null || value === '')
      throw new BadRequest(`Missing route parameter '${key}' for '${path}'`);
    return encodeSegment(value, `route parameter '${key}'`);
  });
}

/** `<base>/<filled path>[/<encoded id>]<query string>`; an id of `null` or `undefined` leaves the id off. */
export function buildUrl(
  base: string,
  path: string,
  id: NullableId | undefined,
  route: Record<string, unknown> | undefined,
  queryString: string,
): string {
  const filled = fillRoute(path, route);
  const idPart = id === null || id === undefined ? '' : `/${encodeSegment(id, 'id')}`;
  return `${base}/${filled}${idPart}${queryString}`;
}

/**
 * One percent-encoded path segment. `.` and `..` (even as `%2E`) are removed by every WHATWG URL
 * parser (fetch, axios in browsers), so the server would see another path: refuse them.
 */
export function encodeSegment(value: unknown, what: string): string {
  const text = String(value);
  if (text === '.' || text === '..') throw new BadRequest(`The ${what} '${text}' can not be sent in a URL path`);
  return encodeURIComponent(text);
}
