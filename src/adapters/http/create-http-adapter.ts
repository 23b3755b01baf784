import type { IncomingMessage, ServerResponse } from 'node:http';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import type { Application } from '../../application/app/application';
import { resolveHttpAdapterOptions, type HttpAdapterOptions, type HttpAdapterSettings } from './http-adapter-options';
import { createApiDocsRouter } from './docs/api-docs-router';
import { createServiceRouter } from './service-router';

/**
 * The inbound HTTP adapter: a Node request listener serving every service of the application,
 * `/health` and `/ready`. Use it as `http.createServer(adapter)` (or `listenHttp(adapter)`), or
 * mount it in an Express app with `outer.use('/api', adapter)`. It answers every request it gets:
 * what it does not serve itself goes to `adapter.express`, and what that app does not answer
 * either gets the JSON 404.
 */
export interface HttpAdapter {
  (req: IncomingMessage, res: ServerResponse): void;
  /**
   * An Express 5 app for the application's other routes (static files, a docs page, webhooks):
   * `adapter.express.get('/docs', ...)`. It sends the security and CORS headers first; errors
   * passed to `next` are answered in the JSON error shape.
   */
  readonly express: Express;
}

export function createHttpAdapter(app: Application, options: HttpAdapterOptions = {}): HttpAdapter {
  const settings = resolveHttpAdapterOptions(options);
  const router = createServiceRouter(app, settings);
  const other = createOtherRoutesApp(settings);
  if (options.apiDocs) other.use(createApiDocsRouter(options.apiDocs, (req) => pageSecurityHeaders(settings, req)));
  // Service routes and probes are answered on Node's request directly, without Express's
  // dispatch (prototype swap, router, finalhandler: about a tenth of the CPU of a small request).
  // Everything else goes through the Express app, called as a mounted app is: (req, res, next).
  const adapter = (req: IncomingMessage, res: ServerResponse): void => {
    if (router.tryServe(req, res)) return;
    other(req as Request, res as Response, (error?: unknown) => router.answerUnrouted(req, res, error));
  };
  return Object.assign(adapter, { express: other });
}

function createOtherRoutesApp(settings: HttpAdapterSettings): Express {
  const other = express();
  other.disable('x-powered-by');
  other.set('etag', false);
  if (settings.trustProxy !== undefined) other.set('trust proxy', settings.trustProxy);
  other.use((req: Request, res: Response, next: NextFunction) => {
    for (const [name, value] of Object.entries(pageSecurityHeaders(settings, req))) res.setHeader(name, value);
    const cors = settings.cors?.headersFor(req.headers);
    if (cors) for (const [name, value] of Object.entries(cors)) res.setHeader(name, value);
    // Preflights (and the JSON 404) are the service router's answer, as for a service path.
    if (cors && settings.cors?.isPreflight(req.method, req.headers)) next('router');
    else next();
  });
  return other;
}

/**
 * `upgrade-insecure-requests` only for a request that came over HTTPS: directly, or by
 * `X-Forwarded-Proto` from a proxy that `trustProxy` trusts (Express's `req.secure`).
 */
function pageSecurityHeaders(settings: HttpAdapterSettings, req: Request): Readonly<Record<string, string>> {
  return req.secure ? settings.securityHeaders : settings.plainHttpSecurityHeaders;
}
