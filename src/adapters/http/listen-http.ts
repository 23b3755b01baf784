import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerClientErrors } from './answer-client-errors';
import { gracefulClose } from './graceful-close';

export interface ListenOptions {
  /** Interface to listen on; default `127.0.0.1`. */
  host?: string;
  /** Port; default 0, a free one (read it back from `url` or `port`). */
  port?: number;
  /** Largest request line plus headers in bytes (Node's default is 16 KB). */
  maxHeaderSize?: number;
}

export interface ListeningHttpServer {
  /** Node's server: for what attaches to the same port (a socket.io server, upgrade handlers). */
  readonly server: Server;
  readonly port: number;
  /** `http://<host>:<port>`, with IPv6 hosts in brackets. */
  readonly url: string;
  /**
   * Stops accepting and resolves once every connection has closed: running requests finish,
   * idle kept-alive sockets close at once, and requests arriving meanwhile get 503.
   */
  close(): Promise<void>;
}

/**
 * Serves `listener` (usually the adapter of `createHttpAdapter`) on a new `http.Server`, with JSON
 * answers to requests Node cannot parse and a graceful close; resolves once the port is bound.
 */
export function listenHttp(listener: RequestListener, options: ListenOptions = {}): Promise<ListeningHttpServer> {
  const { host = '127.0.0.1', port = 0, maxHeaderSize } = options;
  const server = createServer(maxHeaderSize === undefined ? {} : { maxHeaderSize }, listener);
  answerClientErrors(server);
  const graceful = gracefulClose(server);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address() as AddressInfo;
      const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      resolve({
        server,
        port: address.port,
        url: `http://${shownHost}:${address.port}`,
        close: () => graceful.close(),
      });
    });
  });
}
