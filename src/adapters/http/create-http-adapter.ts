import type { IncomingMessage, ServerResponse } from 'node:http';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import type { Application } from '../../application/app/application';
import { apiDocsPages } from './docs/api-docs-pages';
import { resolveHttpAdapterOptions, type HttpAdapterOptions, type HttpAdapterSettings } from './http-adapter-options';
import { createHttpDispatcher } from './http-dispatcher';

/**
 * The inbound HTTP adapter: a Node request listener serving every service of the application,
 * `/health`, `/ready` and (with `apiDocs`) the API docs. Use it as `http.createServer(adapter)`
 * (or `listenHttp(adapter)`), or mount it in an Express app with `outer.use('/api', adapter)`. It
 * answers every request it gets: what it does not serve itself goes to `adapter.express`, and what
 * that app does not answer either gets the JSON 404.
 */
export interface HttpAdapter {
  (req: IncomingMessage, res: ServerResponse): void;
  /**
   * An Express 5 app for the application's own routes (pages, static files, webhooks), mounted
   * the ordinary way: `adapter.express.use(router)`. Its answers carry the page headers (helmet's
   * set) and CORS; errors passed to `next` are answered in the JSON error shape.
   */
  readonly express: Express;
}

export function createHttpAdapter(app: Application, options: HttpAdapterOptions = {}): HttpAdapter {
  const settings = resolveHttpAdapterOptions(options);
  const dispatcher = createHttpDispatcher(app, settings, options.apiDocs ? apiDocsPages(options.apiDocs) : new Map());
  const otherRoutes = createOtherRoutesApp(settings);
  // The Express app is called as a mounted app is: (req, res, next), `next` being the JSON 404.
  const toOtherRoutes = (req: IncomingMessage, res: ServerResponse): void => {
    otherRoutes(req as Request, res as Response, (error?: unknown) => dispatcher.unanswered(req, res, error));
  };
  const adapter = (req: IncomingMessage, res: ServerResponse): void => dispatcher.dispatch(req, res, toOtherRoutes);
  return Object.assign(adapter, { express: otherRoutes });
}

function createOtherRoutesApp(settings: HttpAdapterSettings): Express {
  const other = express();
  other.disable('x-powered-by');
  other.set('etag', false);
  if (settings.trustProxy !== undefined) other.set('trust proxy', settings.trustProxy);
  other.use((req: Request, res: Response, next: NextFunction) => {
    for (const [name, value] of Object.entries(settings.headers.page(req))) res.setHeader(name, value);
    next();
  });
  return other;
}
