import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';
import { copyWith } from '../../domain/plain-record';

/**
 * Runs helmet once, at start-up, against a recording response and returns the headers it sets,
 * so each request copies a ready object instead of running a dozen middlewares. Helmet's
 * headers are static unless a CSP directive is a function (per-request nonces), which an API
 * serving JSON does not need; such functions are called once here. These are the headers of
 * HTML pages and other routes served through `adapter.express` (the docs page, ...).
 */
export function captureSecurityHeaders(options: HelmetOptions = {}): Readonly<Record<string, string>> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: unknown) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
      return recorder;
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
    getHeader(name: string) {
      return headers[name.toLowerCase()];
    },
    locals: {},
  };
  let failure: unknown;
  helmet(options)({ headers: {} } as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    failure = error;
  });
  if (failure) throw failure;
  return Object.freeze(headers);
}

/**
 * The security headers of a JSON answer (OWASP's REST set), built once. Most of helmet's set only
 * means something to a browser rendering a document (script sources, referrers, DNS prefetch,
 * cross-origin isolation); a JSON body needs: never cached (it may be personal), never framed,
 * never sniffed into something executable, HTTPS pinned. `Strict-Transport-Security` is the pages'
 * value, so helmet's `strictTransportSecurity` option sets (or removes) it for both.
 */
export function apiSecurityHeaders(pageHeaders: Readonly<Record<string, string>>): Readonly<Record<string, string>> {
  const headers: Record<string, string> = {
    'cache-control': 'no-store',
    'content-security-policy': "frame-ancestors 'none'",
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
  };
  const hsts = pageHeaders['strict-transport-security'];
  if (hsts !== undefined) headers['strict-transport-security'] = hsts;
  return Object.freeze(headers);
}

/**
 * The pages' headers for a request that came over plain HTTP: the same, less the CSP's
 * `upgrade-insecure-requests`, which would send the page's own scripts and styles to https (a
 * server that only speaks HTTP then shows a blank page; browsers exempt only localhost).
 */
export function plainHttpSecurityHeaders(
  pageHeaders: Readonly<Record<string, string>>,
): Readonly<Record<string, string>> {
  const policy = pageHeaders['content-security-policy'];
  if (policy === undefined) return pageHeaders;
  const directives = policy.split(';').map((directive) => directive.trim());
  const kept = directives.filter(
    (directive) => directive !== '' && directive.split(/\s+/)[0].toLowerCase() !== 'upgrade-insecure-requests',
  );
  return Object.freeze(copyWith(pageHeaders, { 'content-security-policy': kept.join(';') }));
}
