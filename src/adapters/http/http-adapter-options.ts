import type { HelmetOptions } from 'helmet';
import pino from 'pino';
import type { LoggerPort } from '../../ports/logger.port';
import type { MetricsExposition, MetricsPort } from '../../ports/metrics.port';
import type { TracerPort } from '../../ports/tracer.port';
import { AnswerHeaders } from './answer-headers';
import type { TrustProxy } from './client-address';
import { CorsPolicy, type CorsOptions } from './cors-policy';
import type { ApiDocsOptions } from './docs/api-docs-pages';
import { parseByteSize } from './parse-byte-size';

export interface HttpAdapterOptions {
  /** Where the one-line-per-request logs go (a pino logger fits). Default: silent. */
  logger?: LoggerPort;
  /** Largest accepted request body, e.g. `'1mb'` (the default) or a number of bytes. */
  bodyLimit?: string | number;
  /** Hides the messages of unexpected errors (500s) behind a generic one. */
  production?: boolean;
  /**
   * Proxies trusted for `X-Forwarded-For`, with the values and meanings of Express's `trust proxy`
   * setting: the address in `params.ip`, in the logs and in `req.ip` of routes on `adapter.express`.
   */
  trustProxy?: TrustProxy;
  /** Called by `GET /ready`; resolving `false` or rejecting answers 503, anything else 200. Default: always ready. */
  readiness?: () => Promise<unknown> | unknown;
  /** Cross-origin access; off by default. */
  cors?: CorsOptions | false;
  /**
   * Security headers, on by default; `false` disables them. JSON answers (services, probes, errors)
   * carry the API set (`Cache-Control: no-store`, `Content-Security-Policy: frame-ancestors 'none'`,
   * `Strict-Transport-Security`, `X-Content-Type-Options: nosniff`, `X-Frame-Options: DENY`);
   * routes on `adapter.express` (HTML pages, the docs) carry helmet's full set, which an object
   * here configures (its `strictTransportSecurity` applies to both).
   */
  securityHeaders?: boolean | HelmetOptions;
  /** Serves the OpenAPI document at `/openapi.json` and, with `page`, the docs page at `/docs`. Off by default. */
  apiDocs?: ApiDocsOptions;
  /** Traces each request to a service route (a server span continuing the caller's `traceparent`). Default: none. */
  tracer?: TracerPort;
  /** Measures each request to a service route and serves the measurements at `GET /metrics`. Default: none. */
  metrics?: MetricsPort & MetricsExposition;
}

/** pino loggers also say whether a level is on; other loggers may not. */
export type RequestLogger = LoggerPort & { isLevelEnabled?(level: string): boolean };

/** Everything derived from the options once, at start-up. */
export interface HttpAdapterSettings {
  readonly logger: RequestLogger;
  readonly bodyLimit: number;
  readonly production: boolean;
  readonly trustProxy?: TrustProxy;
  readonly readiness?: () => Promise<unknown> | unknown;
  /** The headers of each kind of answer (JSON, page), CORS included, and the client's address. */
  readonly headers: AnswerHeaders;
  readonly tracer?: TracerPort;
  readonly metrics?: MetricsPort & MetricsExposition;
}

export function resolveHttpAdapterOptions(options: HttpAdapterOptions): HttpAdapterSettings {
  return {
    logger: options.logger ?? pino({ level: 'silent' }),
    bodyLimit: parseByteSize(options.bodyLimit ?? '1mb'),
    production: options.production ?? false,
    trustProxy: options.trustProxy,
    readiness: options.readiness,
    headers: new AnswerHeaders(
      options.securityHeaders ?? true,
      options.trustProxy,
      options.cors ? new CorsPolicy(options.cors) : undefined,
    ),
    tracer: options.tracer,
    metrics: options.metrics,
  };
}
