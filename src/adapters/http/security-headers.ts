import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * Runs helmet once, at start-up, against a recording response and returns the headers it sets,
 * so each request copies a ready object instead of running a dozen middlewares. Helmet's
 * headers are static unless a CSP directive is a function (per-request nonces), which an API
 * serving JSON does not need; such functions are called once here.
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
