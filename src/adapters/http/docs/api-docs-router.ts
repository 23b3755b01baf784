import path from 'node:path';
import { Router, type Request, type Response } from 'express';
import { DOCS_PAGE, DOCS_PATH, DOCUMENT_PATH, INIT_SCRIPT, INIT_SCRIPT_SOURCE, SWAGGER_UI_FILES } from './docs-page';

export interface ApiDocsOptions {
  /** The OpenAPI document, served as JSON at `/openapi.json` (serialized once, here). */
  document: object;
  /** Also serve the Swagger UI page at `/docs`. */
  page: boolean;
}

/**
 * `GET /openapi.json` and, with `page`, `GET /docs` (Swagger UI from swagger-ui-dist in
 * node_modules, nothing from a CDN). Every answer carries the adapter's security headers
 * (helmet's full set, as `securityHeaders` gives them for the request: over plain HTTP without
 * `upgrade-insecure-requests`). swagger-ui-dist is only located here (its files are read when requested).
 */
export function createApiDocsRouter(options: ApiDocsOptions, securityHeaders: (req: Request) => Readonly<Record<string, string>>): Router {
  const router = Router();
  const documentJson = JSON.stringify(options.document);
  const withHeaders = (req: Request, res: Response, contentType: string): Response => {
    res.set(securityHeaders(req));
    return res.type(contentType).set('cache-control', 'no-cache');
  };
  router.get(DOCUMENT_PATH, (req: Request, res: Response) => void withHeaders(req, res, 'application/json').send(documentJson));
  if (!options.page) return router;

  const swaggerUi = path.dirname(require.resolve('swagger-ui-dist/package.json'));
  router.get(DOCS_PATH, (req: Request, res: Response) => void withHeaders(req, res, 'html').send(DOCS_PAGE));
  router.get(`${DOCS_PATH}/${INIT_SCRIPT}`, (req: Request, res: Response) => void withHeaders(req, res, 'text/javascript').send(INIT_SCRIPT_SOURCE));
  for (const file of SWAGGER_UI_FILES) {
    router.get(`${DOCS_PATH}/${file}`, (req: Request, res: Response, next) => {
      res.set(securityHeaders(req));
      res.sendFile(path.join(swaggerUi, file), { maxAge: '1h' }, (error) => {
        if (error) next(error);
      });
    });
  }
  return router;
}
