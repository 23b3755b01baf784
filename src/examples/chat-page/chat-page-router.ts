import { Router, type Response } from 'express';
import type { LoggerPort } from '../../ports/logger.port';
import { chatScript } from './bundle-chat-script';
import { CHAT_PAGE_HTML, CHAT_SCRIPT_PATH } from './chat-page.html';

/**
 * Same-origin everything. The socket connects to this origin over ws(s), which `'self'` covers
 * (CSP level 3: a ws/wss URL of this page's host and port); `ws:`/`wss:` would allow any host.
 * They replace the HTTP adapter's page headers of the same names.
 */
const PAGE_HEADERS = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; connect-src 'self'; img-src 'self'; " +
    "form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-cache',
};

/**
 * The live chat page at `/` (and `/index.html`) and its script, for the HTTP adapter's Express
 * app: `http.express.use(chatPage({ logger }))`. GET routes answer HEAD too.
 */
export function chatPage({ logger }: { logger: LoggerPort }): Router {
  const router = Router({ caseSensitive: true, strict: true });
  let bundle: Promise<string> | undefined;
  router.get(['/', '/index.html'], (_req, res) => send(res, 200, 'text/html; charset=utf-8', CHAT_PAGE_HTML));
  router.get(CHAT_SCRIPT_PATH, (_req, res) => {
    bundle ??= chatScript();
    bundle.then(
      (code) => send(res, 200, 'text/javascript; charset=utf-8', code),
      (error: Error) => {
        bundle = undefined;
        logger.error({ err: error.message }, 'could not bundle the chat page script');
        send(res, 500, 'text/plain; charset=utf-8', 'The chat script could not be built.');
      },
    );
  });
  return router;
}

function send(res: Response, status: number, type: string, body: string): void {
  res.status(status).set(PAGE_HEADERS).type(type).send(body);
}
