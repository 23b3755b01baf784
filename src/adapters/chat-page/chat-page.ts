import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { LoggerPort } from '../../ports/logger.port';
import { CHAT_PAGE_HTML, CHAT_SCRIPT_PATH } from './chat-page.html';

type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * Same-origin everything. The socket connects to this origin over ws(s), which `'self'` covers
 * (CSP level 3: a ws/wss URL of this page's host and port); `ws:`/`wss:` would allow any host.
 */
const PAGE_HEADERS = {
  'content-security-policy': "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; connect-src 'self'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-cache',
};

/**
 * Serves the live chat page at `/` and its script, bundled from the TypeScript sources by
 * esbuild on first request (no build step; the bundle is kept in memory). Every other request
 * goes to the listeners the server had. Call it before the socket transport is attached.
 */
export function serveChatPage(server: Server, logger: LoggerPort): void {
  const listeners = server.listeners('request') as RequestListener[];
  server.removeAllListeners('request');
  let bundle: Promise<string> | undefined;
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? '/';
    const isRead = req.method === 'GET' || req.method === 'HEAD';
    if (isRead && (url === '/' || url === '/index.html')) return send(res, 200, 'text/html; charset=utf-8', CHAT_PAGE_HTML);
    if (isRead && url === CHAT_SCRIPT_PATH) {
      bundle ??= bundleChatScript();
      bundle.then(
        (code) => send(res, 200, 'text/javascript; charset=utf-8', code),
        (error: Error) => {
          bundle = undefined;
          logger.error({ err: error.message }, 'could not bundle the chat page script');
          send(res, 500, 'text/plain; charset=utf-8', 'The chat script could not be built.');
        },
      );
      return;
    }
    for (const listener of listeners) listener.call(server, req, res);
  });
}

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { ...PAGE_HEADERS, 'content-type': type, 'content-length': Buffer.byteLength(body) });
  res.end(res.req.method === 'HEAD' ? undefined : body);
}

async function bundleChatScript(): Promise<string> {
  const { build } = await import('esbuild');
  const result = await build({
    // The TypeScript source when run from src/, the compiled file when run from dist/.
    entryPoints: [['chat-app.ts', 'chat-app.js'].map((file) => path.join(__dirname, 'browser', file)).find((file) => existsSync(file)) ?? 'chat-app.ts'],
    bundle: true, platform: 'browser', format: 'iife', target: 'es2020', minify: true, write: false, logLevel: 'silent',
  });
  return result.outputFiles[0].text;
}
