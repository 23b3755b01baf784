import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { signUpAndLogIn, uniqueEmail, PASSWORD, type Account } from '../../helpers/accounts';
import { startApp, type RunningApp } from '../../helpers/app-server';
import { killChildren } from '../../helpers/child-process';
import { startEmbeddedMongoChild, type EmbeddedMongoChild } from '../../helpers/embedded-mongo-child';
import { freePort } from '../../helpers/free-port';
import { call, isErrorBody, type JsonResponse } from '../../helpers/http';

const OPERATION_TIMEOUT_MS = 1000;
/** What a request may take beyond the operation timeout (driver bookkeeping, a loaded CI machine). */
const SLACK_MS = 2500;

/**
 * The store goes away while the app runs: requests get a fast 503 instead of hanging, and the
 * app serves again by itself once the store is back on the same address, without a restart.
 */
describe('reliability: database outage at run time (embedded server in a child process)', () => {
  let dataDir: string;
  let port: number;
  let database: EmbeddedMongoChild;
  let app: RunningApp;
  let account: Account;
  let messageId: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'outage-'));
    port = await freePort();
    database = await startEmbeddedMongoChild(port, dataDir);
    app = await startApp({
      STORE: 'mongo',
      MONGODB_URL: `mongodb://127.0.0.1:${port}/outage`,
      DATABASE_OPERATION_TIMEOUT_MS: String(OPERATION_TIMEOUT_MS),
    });
    account = await signUpAndLogIn(app.url);
    const created = await call(app.url, 'POST', '/messages', {
      token: account.token,
      body: { text: 'before the outage' },
    });
    expect(created.status).toBe(201);
    messageId = created.body._id;
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    await killChildren();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it.each(['SIGTERM', 'SIGKILL'] as const)(
    'after %s of the store: 503 Unavailable within the operation timeout, then recovery by itself',
    async (signal) => {
      expect((await call(app.url, 'GET', '/ready')).status).toBe(200);
      await database.child.stop(signal);

      const timed = async (
        method: string,
        pathname: string,
        body?: unknown,
        token?: string,
      ): Promise<[JsonResponse, number]> => {
        const startedAt = Date.now();
        const response = await call(app.url, method, pathname, { body, token });
        return [response, Date.now() - startedAt];
      };
      // Reads, writes, sign-up and login, all at once: none may hang or turn into another status.
      const outcomes = await Promise.all([
        timed('GET', '/messages', undefined, account.token),
        timed('GET', `/messages/${messageId}`, undefined, account.token),
        timed('POST', '/messages', { text: 'during the outage' }, account.token),
        timed('PATCH', `/messages/${messageId}`, { $inc: { likes: 1 } }, account.token),
        timed('POST', '/users', { email: uniqueEmail('outage'), password: PASSWORD }),
        timed('POST', '/authentication', { strategy: 'local', email: account.user.email, password: PASSWORD }),
        timed('GET', '/ready'),
      ]);
      for (const [response, elapsed] of outcomes) {
        expect({ status: response.status, name: response.body?.name }).toEqual({ status: 503, name: 'Unavailable' });
        expect(isErrorBody(response.body, 503)).toBe(true);
        expect(elapsed).toBeLessThan(OPERATION_TIMEOUT_MS + SLACK_MS);
      }
      // Liveness does not depend on the store.
      expect((await call(app.url, 'GET', '/health')).status).toBe(200);

      database = await startEmbeddedMongoChild(port, dataDir);
      const recovered = await pollUntil(
        () => call(app.url, 'GET', `/messages/${messageId}`, { token: account.token }),
        (response) => response.status === 200,
        20_000,
      );
      expect(recovered.body).toMatchObject({ _id: messageId, text: 'before the outage' });
      expect(
        (await call(app.url, 'POST', '/messages', { token: account.token, body: { text: `after ${signal}` } })).status,
      ).toBe(201);
      expect((await call(app.url, 'GET', '/ready')).status).toBe(200);
    },
    60_000,
  );
});

/** Calls `probe` until `done` holds (bounded in time), pausing between attempts; returns the last answer. */
async function pollUntil<T>(probe: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
