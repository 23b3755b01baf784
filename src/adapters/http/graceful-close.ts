import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Unavailable } from '../../domain/errors';
import { bodyStillArriving, endAfterDiscardingBody } from './answer-before-body-read';

type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

export interface GracefulClose {
  /** Stops accepting, lets running requests finish, and resolves once every connection has closed. */
  close(): Promise<void>;
}

/**
 * Makes `server.close()` safe under keep-alive load. Node's own close leaves busy keep-alive
 * sockets open after their response and keeps serving new requests on them, so a steady client
 * holds the process until the grace timer cuts requests in half. Here, once closing:
 * responses still being prepared carry `Connection: close`; a request arriving later on a kept
 * socket gets 503 with `Connection: close` before any work is done; idle sockets are closed as
 * soon as they become idle. Call it before the server gets requests; it wraps the listeners.
 */
export function gracefulClose(server: Server): GracefulClose {
  const listeners = server.listeners('request') as RequestListener[];
  server.removeAllListeners('request');
  const running = new Set<ServerResponse>();
  let closing: Promise<void> | undefined;

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (closing) {
      refuse(req, res);
      return;
    }
    running.add(res);
    res.once('close', () => {
      running.delete(res);
      // A response sent before close was keep-alive: its socket is idle now, so close it.
      if (closing) setImmediate(() => server.closeIdleConnections());
    });
    for (const listener of listeners) listener.call(server, req, res);
  });

  return {
    close() {
      closing ??= new Promise<void>((resolve, reject) => {
        for (const res of running) if (!res.headersSent) res.setHeader('connection', 'close');
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeIdleConnections();
      });
      return closing;
    },
  };
}

function refuse(req: IncomingMessage, res: ServerResponse): void {
  const body = JSON.stringify(new Unavailable('The server is shutting down').toJSON());
  res.writeHead(503, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    connection: 'close',
  });
  if (bodyStillArriving(req)) endAfterDiscardingBody(req, res, body);
  else res.end(body);
}
