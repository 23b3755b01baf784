import type { IncomingHttpHeaders } from 'node:http';

export interface CorsOptions {
  /** Allowed origins, exactly as browsers send them (`https://app.example.com`); `'*'` allows any. */
  origins: string[];
  /** Send `Access-Control-Allow-Credentials: true` (never combined with a wildcard origin). */
  credentials?: boolean;
  /** Seconds a browser may cache a preflight answer. */
  maxAge?: number;
}

const ALLOWED_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE';
const ALLOWED_HEADERS = 'Accept, Authorization, Content-Type, Idempotency-Key, X-Request-Id, X-Service-Method';

/** CORS headers for one request (undefined when the origin is not allowed), and preflight answers. */
export class CorsPolicy {
  private readonly origins: ReadonlySet<string>;
  private readonly anyOrigin: boolean;

  constructor(private readonly options: CorsOptions) {
    this.origins = new Set(options.origins);
    this.anyOrigin = this.origins.has('*');
  }

  headersFor(requestHeaders: IncomingHttpHeaders): Record<string, string> | undefined {
    const origin = requestHeaders.origin;
    if (origin === undefined || (!this.anyOrigin && !this.origins.has(origin))) return undefined;
    const headers: Record<string, string> = {
      'access-control-allow-origin': origin,
      'access-control-expose-headers': 'X-Request-Id, Location',
      vary: 'Origin',
    };
    if (this.options.credentials) headers['access-control-allow-credentials'] = 'true';
    return headers;
  }

  /** A preflight is an OPTIONS request naming the method it wants to send. */
  isPreflight(method: string | undefined, requestHeaders: IncomingHttpHeaders): boolean {
    return method === 'OPTIONS' && requestHeaders['access-control-request-method'] !== undefined;
  }

  preflightHeaders(): Record<string, string> {
    return {
      'access-control-allow-methods': ALLOWED_METHODS,
      'access-control-allow-headers': ALLOWED_HEADERS,
      'access-control-max-age': String(this.options.maxAge ?? 600),
    };
  }
}
