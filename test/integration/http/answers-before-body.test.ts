import net from 'node:net';
import { DISCARD_LIMITS } from '../../../src/adapters/http/answer-before-body-read';
import { parseAnswer, sendRawBody, type RawBodyRequest } from './raw-body-client';
import { buildTestApp, startServer, type RunningServer } from './http-test-app';

const FIFTY_MB = 50 * 1024 * 1024;
const ROUNDS = 20;

/**
 * An answer given before the request body has been read (413 over the limit, 400 for an
 * unsupported encoding, 404 elsewhere) reaches a client that keeps sending its whole body: the
 * server reads and discards the rest before it closes, so the client never gets a reset instead.
 */
describe('HTTP adapter: answers sent while the client is still sending', () => {
  let running: RunningServer;

  beforeAll(async () => {
    running = await startServer(buildTestApp());
  });
  afterAll(() => running.close());

  const expectCompleteAnswer = async (request: RawBodyRequest, status: number, name: string) => {
    const exchange = await sendRawBody(running.url, request);
    const answer = parseAnswer(exchange.received);
    const context = `${exchange.received.length} bytes received, ${exchange.sentBytes} sent, error ${exchange.error}`;
    expect({ status: answer?.status, complete: answer?.body !== undefined, context }).toEqual({
      status,
      complete: true,
      context,
    });
    expect(JSON.parse(answer!.body!)).toMatchObject({ name, code: status });
    expect(answer!.headers.connection).toBe('close');
    expect({
      timedOut: exchange.timedOut,
      error: exchange.error,
      sentAll: exchange.sentBytes === request.bodyBytes,
    }).toEqual({ timedOut: false, error: undefined, sentAll: true });
  };

  for (const chunked of [false, true]) {
    const framing = chunked ? 'chunked' : 'with Content-Length';
    it(`a 50 MB body ${framing}: ${ROUNDS} times in a row the client reads the complete 413`, async () => {
      for (let round = 0; round < ROUNDS; round++) {
        await expectCompleteAnswer({ path: '/messages', bodyBytes: FIFTY_MB, chunked }, 413, 'PayloadTooLarge');
      }
    }, 120_000);

    it(`a 50 MB body ${framing} with Connection: close still gets its 413`, async () => {
      for (let round = 0; round < 5; round++) {
        await expectCompleteAnswer(
          { path: '/messages', bodyBytes: FIFTY_MB, chunked, headers: { Connection: 'close' } },
          413,
          'PayloadTooLarge',
        );
      }
    }, 60_000);
  }

  it('a 400 for an unsupported encoding and a 404 elsewhere arrive the same way', async () => {
    for (let round = 0; round < 3; round++) {
      await expectCompleteAnswer(
        { path: '/messages', bodyBytes: FIFTY_MB, chunked: false, headers: { 'Content-Encoding': 'gzip' } },
        400,
        'BadRequest',
      );
      await expectCompleteAnswer({ path: '/nowhere', bodyBytes: FIFTY_MB, chunked: true }, 404, 'NotFound');
    }
  }, 60_000);

  it('a request whose headers are too large, followed by a large body, reads its 400 too', async () => {
    for (let round = 0; round < 5; round++) {
      const exchange = await sendRawBody(running.url, {
        path: '/messages',
        headers: { 'X-Padding': 'x'.repeat(32 * 1024) },
        bodyBytes: FIFTY_MB,
        chunked: false,
      });
      const answer = parseAnswer(exchange.received);
      expect({
        status: answer?.status,
        complete: answer?.body !== undefined,
        reset: exchange.error === 'ECONNRESET',
      }).toEqual({ status: 400, complete: true, reset: false });
      expect(JSON.parse(answer!.body!)).toMatchObject({
        name: 'BadRequest',
        message: 'The request line or headers are too large',
      });
    }
  }, 60_000);

  it(
    'a client sending more ' + `than ${DISCARD_LIMITS.bytes / 1024 / 1024} MB is cut off after ` + 'reading its answer',
    async () => {
      const bodyBytes = 4 * DISCARD_LIMITS.bytes;
      const exchange = await sendRawBody(running.url, { path: '/messages', bodyBytes, chunked: false });
      const answer = parseAnswer(exchange.received);
      expect({ status: answer?.status, complete: answer?.body !== undefined }).toEqual({ status: 413, complete: true });
      expect(exchange.sentBytes).toBeLessThan(bodyBytes);
    },
    60_000,
  );

  it(
    'a client trickling its body is cut off ' +
      `after ${DISCARD_LIMITS.milliseconds / 1000} s, having read its ` +
      'answer',
    async () => {
      const { hostname, port } = new URL(running.url);
      const started = Date.now();
      const received = await new Promise<Buffer>((resolve) => {
        const socket = net.connect(Number(port), hostname, () => {
          socket.write(
            `POST /messages HTTP/1.1\r\nHost: x\r\n` +
              `Content-Type: application/json\r\n` +
              `Content-Length: ${4 * 1024 * 1024}\r\n\r\n`,
          );
        });
        const chunks: Buffer[] = [];
        const trickle = setInterval(() => socket.writable && socket.write('x'.repeat(1024)), 50);
        const bound = setTimeout(() => socket.destroy(), 30_000);
        socket.on('data', (chunk: Buffer) => chunks.push(chunk));
        socket.on('error', () => undefined);
        socket.on('close', () => {
          clearInterval(trickle);
          clearTimeout(bound);
          resolve(Buffer.concat(chunks));
        });
      });
      const elapsed = Date.now() - started;
      expect(parseAnswer(received)).toMatchObject({ status: 413, body: expect.stringContaining('PayloadTooLarge') });
      expect(elapsed).toBeGreaterThanOrEqual(DISCARD_LIMITS.milliseconds - 500);
      expect(elapsed).toBeLessThan(DISCARD_LIMITS.milliseconds + 10_000);
    },
    60_000,
  );

  it('the server answers the next request at once', async () => {
    const response = await fetch(`${running.url}/messages`);
    expect(response.status).toBe(200);
  });
});
