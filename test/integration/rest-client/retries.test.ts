import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp, rest, Unavailable } from '../../../src/client';
import { signUpAndLogIn, type Account } from '../../helpers/accounts';
import { startApp, type RunningApp } from '../../helpers/app-server';
import { call } from '../../helpers/http';

/**
 * A proxy in front of the app that loses answers: the first `lose` requests reach the app and are
 * done there, but their client's connection is cut before the answer goes back (a timeout, a
 * dropped mobile connection).
 */
async function answerLosingProxy(
  target: string,
): Promise<{ url: string; lose(count: number): void; seen: () => number; close(): Promise<void> }> {
  let toLose = 0;
  let seen = 0;
  const upstream = new URL(target);
  const server: Server = createServer((incoming, outgoing) => {
    seen += 1;
    const losing = toLose > 0;
    if (losing) toLose -= 1;
    const forwarded = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: incoming.method,
        path: incoming.url,
        headers: incoming.headers,
      },
      (answer) => {
        if (losing) {
          answer.resume();
          answer.on('end', () => outgoing.socket?.destroy());
          return;
        }
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    lose: (count) => (toLose = count),
    seen: () => seen,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Our REST client's retries: only what is safe to repeat, and writes once thanks to their Idempotency-Key. */
describe('REST client retries', () => {
  let app: RunningApp;
  let proxy: Awaited<ReturnType<typeof answerLosingProxy>>;
  let author: Account;

  beforeAll(async () => {
    app = await startApp({ STORE: 'memory' });
    proxy = await answerLosingProxy(app.url);
    author = await signUpAndLogIn(app.url);
  });
  afterAll(async () => {
    await proxy.close();
    await app.close();
  });

  function messagesClient(retry?: { attempts: number; delayMs?: number; idempotencyKeys?: boolean }) {
    const client = createApp();
    client.configure(rest(proxy.url).fetch(fetch, { headers: { Authorization: `Bearer ${author.token}` }, retry }));
    return client.service('messages');
  }

  const countOf = async (text: string) =>
    (await call(app.url, 'GET', `/messages?text=${encodeURIComponent(text)}&$limit=0`, { token: author.token })).body
      .total as number;

  it(
    'retries a create whose answer was lost with the same key: ' + 'done once, answered with the first result',
    async () => {
      proxy.lose(1);
      const before = proxy.seen();
      const created = (await messagesClient({ attempts: 2, delayMs: 10, idempotencyKeys: true }).create({
        text: 'sent through a bad network',
      })) as Record<string, unknown>;
      expect(proxy.seen() - before).toBe(2);
      expect(created).toMatchObject({ text: 'sent through a bad network' });
      expect(await countOf('sent through a bad network')).toBe(1);
    },
  );

  it('never repeats a create without a key, and repeats reads', async () => {
    proxy.lose(1);
    const before = proxy.seen();
    await expect(messagesClient({ attempts: 2, delayMs: 10 }).create({ text: 'not repeated' })).rejects.toBeInstanceOf(
      Unavailable,
    );
    expect(proxy.seen() - before).toBe(1);
    // It happened once, although the client could not know.
    expect(await countOf('not repeated')).toBe(1);
    proxy.lose(1);
    const page = (await messagesClient({ attempts: 2, delayMs: 10 }).find({ query: { $limit: 1 } })) as {
      data: unknown[];
    };
    expect(page.data).toHaveLength(1);
    // Without retries, a lost answer is the caller's to handle.
    proxy.lose(1);
    await expect(messagesClient().find({ query: { $limit: 1 } })).rejects.toBeInstanceOf(Unavailable);
  });
});
