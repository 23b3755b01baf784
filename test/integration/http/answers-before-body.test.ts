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
    expect({ status: answer?.status, complete: answer?.body !== undefined, context }).toEqual({ status, complete: true, context });
    expect(JSON.parse(answer!.body!)).toMatchObject({ name, code: status });
    expect(answer!.headers.connection).toBe('close');
    expect({ timedOut: exchange.timedOut, error: exchange.error, sentAll: exchange.sentBytes === request.bodyBytes }).toEqual({ timedOut: false, error: undefined, sentAll: true });
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
        await expectCompleteAnswer({ path: '/messages', bodyBytes: FIFTY_MB, chunked, headers: { Connection: 'close' } }, 413, 'PayloadTooLarge');
      }
    }, 60_000);
  }

  it('a 400 for an unsupported encoding and a 404 elsewhere arrive the same way', async () => {
    for (let round = 0; round < 3; round++) {
      await expectCompleteAnswer({ path: '/messages', bodyBytes: FIFTY_MB, chunked: false, headers: { 'Content-Encoding': 'gzip' } }, 400, 'BadRequest');
      await expectCompleteAnswer({ path: '/nowhere', bodyBytes: FIFTY_MB, chunked: true }, 404, 'NotFound');
    }
  }, 60_000);

  it('a request whose headers are too large, followed by a large body, reads its 400 too', async () => {
    for (let round = 0; round < 5; round++) {
      const exchange = await sendRawBody(running.url, { path: '/messages', headers: { 'X-Padding': 'x'.repeat(32 * 1024) }, bodyBytes: FIFTY_MB, chunked: false });
      const answer = parseAnswer(exchange.received);
      expect({ status: answer?.status, complete: answer?.body !== undefined, reset: exchange.error === 'ECONNRESET' }).toEqual({ status: 400, complete: true, reset: false });
      expect(JSON.parse(answer!.body!)).toMatchObject({ name: 'BadRequest', message: 'The request line or headers are too large' });
    }
  }, 60_000);

  it('the server answers the next request at once', async () => {
    const response = await fetch(`${running.url}/messages`);
    expect(response.status).toBe(200);
  });
});
