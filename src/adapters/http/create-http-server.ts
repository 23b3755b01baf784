import { createServer, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Application } from '../../application/app/application';
import { BadRequest, Timeout, type ServiceError } from '../../domain/errors';
import { createHttpAdapter } from './create-http-adapter';
import type { HttpAdapterOptions } from './http-adapter-options';

export interface HttpServerOptions extends HttpAdapterOptions {
  /** Largest request line plus headers in bytes (Node's default is 16 KB). */
  maxHeaderSize?: number;
}

/**
 * An `http.Server` for `app`: the adapter as request listener, plus JSON answers for requests
 * Node rejects before they reach Express (a 100 KB URL, malformed HTTP), which Node would
 * otherwise answer with an empty body. Not listening yet.
 */
export function createHttpServer(app: Application, options: HttpServerOptions = {}): Server {
  const { maxHeaderSize, ...adapterOptions } = options;
  const server = createServer(maxHeaderSize === undefined ? {} : { maxHeaderSize }, createHttpAdapter(app, adapterOptions));
  answerClientErrors(server);
  return server;
}

/** Replaces Node's plain-text answers to unparseable requests with the JSON error shape. */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const answer: ServiceError = error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? new Timeout('The request took too long to arrive')
      : new BadRequest(error.code === 'HPE_HEADER_OVERFLOW' ? 'The request line or headers are too large' : 'Malformed HTTP request');
    const body = JSON.stringify(answer.toJSON());
    const reason = answer.code === 408 ? 'Request Timeout' : 'Bad Request';
    socket.end(
      `HTTP/1.1 ${answer.code} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
