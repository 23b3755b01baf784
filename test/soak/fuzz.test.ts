import fc from 'fast-check';
import { MongoClient } from 'mongodb';
import { signUpAndLogIn, type Account } from '../helpers/accounts';
import { BOTH_STORES, startApp, type RunningApp } from '../helpers/app-server';
import { killChildren } from '../helpers/child-process';
import { startEmbeddedMongoChild } from '../helpers/embedded-mongo-child';
import { freePort } from '../helpers/free-port';
import { checkReplies, exchange, wireInput } from '../helpers/wire-fuzz-cases';
import { checkAnswer, fuzzCase, toRequest } from '../helpers/http-fuzz-cases';
import { rawRequest } from '../helpers/raw-request';

/** How long each long fuzzing run may take; fast-check stops there and the run passes if nothing failed. */
const TIME_LIMIT_MS = 30_000;

/** The same properties as the fast fuzz tests in `npm test`, with many more runs. */
describe.each(BOTH_STORES)('soak: fuzzing the HTTP adapter on %s', (_store, env) => {
  let app: RunningApp;
  let account: Account;

  beforeAll(async () => {
    app = await startApp(env);
    account = await signUpAndLogIn(app.url);
  }, 60_000);
  afterAll(() => app?.close());

  it(
    `answers up to 20,000 random requests within ${TIME_LIMIT_MS / 1000} s with well-formed JSON and no 5xx`,
    async () => {
      await fc.assert(
        fc.asyncProperty(fuzzCase, async (sample) => {
          const spec = toRequest(sample, account.token);
          checkAnswer(spec, await rawRequest(app.url, spec));
        }),
        { numRuns: 20_000, interruptAfterTimeLimit: TIME_LIMIT_MS, markInterruptAsFailure: false },
      );
      expect((await rawRequest(app.url, { method: 'GET', path: '/health' })).status).toBe(200);
    },
    TIME_LIMIT_MS + 30_000,
  );
});

describe('soak: fuzzing the embedded server socket', () => {
  afterAll(killChildren);

  it(
    `survives up to 20,000 hostile frames within ${TIME_LIMIT_MS / 1000} s and still answers a ping`,
    async () => {
      const port = await freePort();
      const server = await startEmbeddedMongoChild(port, ':memory:');
      await fc.assert(
        fc.asyncProperty(wireInput, async (input) => checkReplies(await exchange(port, input))),
        { numRuns: 20_000, interruptAfterTimeLimit: TIME_LIMIT_MS, markInterruptAsFailure: false },
      );
      expect(server.child.running).toBe(true);
      const client = new MongoClient(server.url, { serverSelectionTimeoutMS: 5000 });
      try {
        await expect(client.db('admin').command({ ping: 1 })).resolves.toMatchObject({ ok: 1 });
      } finally {
        await client.close();
      }
    },
    TIME_LIMIT_MS + 30_000,
  );
});
