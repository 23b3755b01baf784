import fc from 'fast-check';
import { signUpAndLogIn, type Account } from '../../helpers/accounts';
import { startApp, type RunningApp } from '../../helpers/app-server';
import { checkAnswer, fuzzCase, toRequest } from '../../helpers/http-fuzz-cases';
import { rawRequest } from '../../helpers/raw-request';

describe.each([
  ['memory', { STORE: 'memory' }, 1000],
  ['mongo (embedded)', { STORE: 'mongo' }, 200],
])('fuzzing the HTTP adapter on %s', (_store, env, numRuns) => {
  let app: RunningApp;
  let account: Account;

  beforeAll(async () => {
    app = await startApp(env);
    account = await signUpAndLogIn(app.url);
  }, 60_000);
  afterAll(() => app?.close());

  it(
    `answers ${numRuns} random requests (queries, bodies, ids, ` + 'headers) with well-formed JSON and no 5xx',
    async () => {
      await fc.assert(
        fc.asyncProperty(fuzzCase, async (sample) => {
          const spec = toRequest(sample, account.token);
          checkAnswer(spec, await rawRequest(app.url, spec));
        }),
        { numRuns, interruptAfterTimeLimit: 40_000, markInterruptAsFailure: false },
      );
      // Still serving, and accounts still work. A fresh one: the fuzzed requests carry the first
      // account's token and may legitimately delete it (`DELETE /users/0` is its own id on memory).
      expect((await rawRequest(app.url, { method: 'GET', path: '/health' })).status).toBe(200);
      const after = await signUpAndLogIn(app.url);
      expect(
        (
          await rawRequest(app.url, {
            method: 'GET',
            path: '/messages',
            headers: { authorization: `Bearer ${after.token}` },
          })
        ).status,
      ).toBe(200);
    },
    60_000,
  );
});
