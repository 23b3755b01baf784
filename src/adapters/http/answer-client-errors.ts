import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { BadRequest, Timeout, type ServiceError } from '../../domain/errors';
import { DISCARD_LIMITS } from './answer-before-body-read';

/**
 * Replaces Node's plain-text answers to requests it cannot parse (a 100 KB URL, malformed HTTP,
 * a request too slow to arrive) with the JSON error shape. The answer is followed by a half-close;
 * the socket is destroyed only once the client has closed its side too, or after the discard
 * time bound, so a client still sending reads the answer instead of a reset.
 */
export function answerClientErrors(server: Server): void {
  const answered = new WeakSet<Duplex>();
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // Node's parser reports each later chunk of an answered connection again: it is being discarded.
    if (answered.has(socket) && error.code !== 'ECONNRESET') return;
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const answer: ServiceError =
      error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? new Timeout('The request took too long to arrive')
        : new BadRequest(
            error.code === 'HPE_HEADER_OVERFLOW'
              ? 'The request line or headers are too large'
              : 'Malformed HTTP request',
          );
    const body = JSON.stringify(answer.toJSON());
    const reason = answer.code === 408 ? 'Request Timeout' : 'Bad Request';
    socket.end(
      `HTTP/1.1 ${answer.code} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
    answered.add(socket);
    const timer = setTimeout(() => socket.destroy(), DISCARD_LIMITS.milliseconds);
    socket.once('close', () => clearTimeout(timer));
    socket.resume();
  });
}
