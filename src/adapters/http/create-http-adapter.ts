import type { IncomingMessage, ServerResponse } from 'node:http';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import type { Application } from '../../application/app/application';
import { expressClientAddress } from './client-address';
import { createApiDocsRouter } from './docs/api-docs-router';
import { resolveHttpAdapterOptions, type HttpAdapterOptions } from './http-adapter-options';
import { HttpExchange } from './http-exchange';
import { createRequestIdSource } from './request-id';
import { createServiceRouter } from './service-router.middleware';

/** Express's own entry point of an app (`app.handle`), untyped in @types/express. */
type Dispatch = (req: IncomingMessage, res: ServerResponse, callback?: (error?: unknown) => void) => void;

/**
 * The Express 5 inbound adapter: one router maps HTTP onto every service of `app`, plus
 * `/health`, `/ready`, JSON 404s and JSON errors. Use it as a request listener:
 * `http.createServer(createHttpAdapter(app)).listen(0, '127.0.0.1')`.
 */
export function createHttpAdapter(app: Application, options: HttpAdapterOptions = {}): Express {
  const server = express();
  const settings = { ...resolveHttpAdapterOptions(options), clientAddress: expressClientAddress(server) };
  server.disable('x-powered-by');
  server.set('etag', false);
  // The service router parses the query string itself, once, with the shared qs limits.
  server.set('query parser', false);
  if (settings.trustProxy !== undefined) server.set('trust proxy', settings.trustProxy);
  const router = createServiceRouter(app, settings);
  if (options.apiDocs) server.use(createApiDocsRouter(options.apiDocs, settings.securityHeaders));
  server.use((req: Request, res: Response) => router.serveAll(req, res));
  // The router answers every request itself; this only catches what escapes Express internals.
  const fallbackIds = createRequestIdSource();
  server.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    new HttpExchange(req, res, fallbackIds(undefined), settings).sendError(error);
  });
  // Service paths, /health and /ready are answered on the raw request before Express's dispatch
  // (prototype swap, router, finalhandler: about a tenth of the CPU of a small request); any
  // other request still goes through Express's dispatch, unchanged (and ends in the JSON 404).
  const dispatchable = server as unknown as { handle: Dispatch };
  const expressDispatch = dispatchable.handle;
  dispatchable.handle = function handle(this: unknown, req, res, callback) {
    if (!router.tryServe(req, res)) expressDispatch.call(this, req, res, callback);
  };
  return server;
}
