import net from 'node:net';

export interface RawBodyRequest {
  method?: string;
  path: string;
  /** Extra header lines, e.g. `{ 'Content-Encoding': 'gzip' }`. */
  headers?: Record<string, string>;
  /** Body size in bytes, sent whatever the server answers meanwhile. */
  bodyBytes: number;
  /** Chunked transfer encoding instead of a Content-Length. */
  chunked: boolean;
}

export interface RawExchange {
  /** Everything the server sent, until it closed the connection. */
  received: Buffer;
  /** Bytes of the body written to the socket before it closed. */
  sentBytes: number;
  /** The socket's error code, if any (EPIPE, ECONNRESET). */
  error?: string;
  timedOut: boolean;
}

export interface ParsedAnswer {
  status: number;
  headers: Record<string, string>;
  /** Exactly Content-Length bytes of body, or undefined when fewer arrived. */
  body?: string;
}

const PIECE = Buffer.alloc(64 * 1024, 0x61);

/**
 * A client on node:net that sends a request with a large body as fast as the socket takes it,
 * reading whatever arrives meanwhile, and keeps sending after an early answer (as clients that
 * do not watch for one do). Resolves when the server closes the connection, or after `timeoutMs`.
 */
export function sendRawBody(url: string, request: RawBodyRequest, timeoutMs = 30_000): Promise<RawExchange> {
  const { hostname, port } = new URL(url);
  const head = [
    `${request.method ?? 'POST'} ${request.path} HTTP/1.1`,
    'Host: 127.0.0.1',
    'Content-Type: application/json',
    request.chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${request.bodyBytes}`,
    ...Object.entries(request.headers ?? {}).map(([name, value]) => `${name}: ${value}`),
  ].join('\r\n');
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname);
    const received: Buffer[] = [];
    let sentBytes = 0;
    let error: string | undefined;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      socket.destroy();
    }, timeoutMs);
    const pump = (): void => {
      while (sentBytes < request.bodyBytes && socket.writable) {
        const piece = PIECE.subarray(0, Math.min(PIECE.length, request.bodyBytes - sentBytes));
        sentBytes += piece.length;
        const framed = request.chunked
          ? Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')])
          : piece;
        if (!socket.write(framed)) {
          socket.once('drain', pump);
          return;
        }
      }
      if (request.chunked && socket.writable) socket.write('0\r\n\r\n');
    };
    socket.on('connect', () => {
      socket.write(`${head}\r\n\r\n`);
      pump();
    });
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    socket.on('error', (failure: NodeJS.ErrnoException) => {
      error = failure.code ?? failure.message;
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ received: Buffer.concat(received), sentBytes, error, timedOut });
    });
  });
}

/** The first HTTP answer in `received`: status, headers, and its body when all of it arrived. */
export function parseAnswer(received: Buffer): ParsedAnswer | undefined {
  const end = received.indexOf('\r\n\r\n');
  if (end === -1) return undefined;
  const [statusLine, ...lines] = received.subarray(0, end).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.1 (\d{3}) /.exec(statusLine)?.[1]);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = Number(headers['content-length']);
  const rest = received.subarray(end + 4);
  return {
    status,
    headers,
    body: Number.isInteger(length) && rest.length >= length ? rest.subarray(0, length).toString('utf8') : undefined,
  };
}
