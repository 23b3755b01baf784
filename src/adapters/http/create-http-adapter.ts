import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import type { Application } from '../../application/app/application';
import { resolveHttpAdapterOptions, type HttpAdapterOptions } from './http-adapter-options';
import { HttpExchange } from './http-exchange';
import { createRequestIdSource } from './request-id';
import { createServiceRouter } from './service-router.middleware';

/**
 * The Express 5 inbound adapter: one middleware maps HTTP onto every service of `app`, plus
 * `/health`, `/ready`, JSON 404s and JSON errors. Use it as a request listener:
 * `http.createServer(createHttpAdapter(app)).listen(0, '127.0.0.1')`.
 */
export function createHttpAdapter(app: Application, options: HttpAdapterOptions = {}): Express {
  const settings = resolveHttpAdapterOptions(options);
  const server = express();
  server.disable('x-powered-by');
  server.set('etag', false);
  // The service router parses the query string itself, once, with the shared qs limits.
  server.set('query parser', false);
  if (settings.trustProxy !== undefined) server.set('trust proxy', settings.trustProxy);
  const serviceRouter = createServiceRouter(app, settings);
  server.use((req: Request, res: Response) => serviceRouter(req, res));
  // The router answers every request itself; this only catches what escapes Express internals.
  const fallbackIds = createRequestIdSource();
  server.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    new HttpExchange(req, res, fallbackIds(undefined), settings).sendError(error);
  });
  return server;
}
