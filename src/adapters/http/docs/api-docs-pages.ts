import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { DOCS_PAGE, DOCS_PATH, DOCUMENT_PATH, INIT_SCRIPT, INIT_SCRIPT_SOURCE, SWAGGER_UI_FILES } from './docs-page';

export interface ApiDocsOptions {
  /** The OpenAPI document, served as JSON at `/openapi.json` (serialized once, here). */
  document: object;
  /** Also serve the Swagger UI page at `/docs`. */
  page: boolean;
}

/** A fixed answer to `GET` (and `HEAD`) of one path: its type, its bytes, how long a browser may keep it. */
export interface StaticPage {
  readonly contentType: string;
  readonly cacheControl: string;
  body(): Promise<string | Buffer> | string;
}

const CONTENT_TYPES: Record<string, string> = {
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.png': 'image/png',
};

/**
 * `/openapi.json` and, with `page`, `/docs` with its script and Swagger UI's files from
 * swagger-ui-dist in node_modules (nothing from a CDN; each file read once, when first asked for).
 */
export function apiDocsPages(options: ApiDocsOptions): Map<string, StaticPage> {
  const documentJson = JSON.stringify(options.document);
  const pages = new Map<string, StaticPage>([
    [
      DOCUMENT_PATH,
      { contentType: 'application/json; charset=utf-8', cacheControl: 'no-cache', body: () => documentJson },
    ],
  ]);
  if (!options.page) return pages;
  pages.set(DOCS_PATH, { contentType: 'text/html; charset=utf-8', cacheControl: 'no-cache', body: () => DOCS_PAGE });
  pages.set(`${DOCS_PATH}/${INIT_SCRIPT}`, {
    contentType: 'text/javascript; charset=utf-8',
    cacheControl: 'no-cache',
    body: () => INIT_SCRIPT_SOURCE,
  });
  const swaggerUi = path.dirname(require.resolve('swagger-ui-dist/package.json'));
  for (const file of SWAGGER_UI_FILES) {
    let bytes: Promise<Buffer> | undefined;
    pages.set(`${DOCS_PATH}/${file}`, {
      contentType: CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream',
      cacheControl: 'public, max-age=3600',
      body: () => {
        bytes ??= readFile(path.join(swaggerUi, file)).catch((error: unknown) => {
          bytes = undefined;
          throw error;
        });
        return bytes;
      },
    });
  }
  return pages;
}
