import fc from 'fast-check';
import { signUpAndLogIn, type Account } from '../../helpers/accounts';
import { killChildren } from '../../helpers/child-process';
import { call } from '../../helpers/http';
import { checkAnswer, fuzzCase, toRequest } from '../../helpers/http-fuzz-cases';
import { startMainProcess, type MainProcess } from '../../helpers/main-process';
import { rawRequest } from '../../helpers/raw-request';

/**
 * `npm start` itself (a child process, so a crash is visible as an exit): hostile input is
 * answered and the process keeps running. An unhandled rejection would end it (Node's default).
 */
describe('reliability: the server process survives hostile input', () => {
  let server: MainProcess;
  let account: Account;

  beforeAll(async () => {
    server = await startMainProcess({ STORE: 'memory', DATA_DIR: ':memory:' });
    account = await signUpAndLogIn(server.url);
  }, 60_000);
  afterAll(killChildren);

  afterEach(async () => {
    expect(server.child.running).toBe(true);
    expect((await call(server.url, 'GET', '/health')).status).toBe(200);
  });

  it.each([
    // A value failing validation asynchronously, then a field failing synchronously (used to crash).
    '/messages?createdAt=-5&nope=1',
    '/messages?likes=-1.5&$or[0][nope]=1',
    '/messages?createdAt[$gt]=-1&createdAt[$lt]=x',
    '/messages?read=true&createdAt=-1&text[$where]=1',
    '/users?email=x&password=y',
  ])('GET %s is a 400 and the process lives on', async (pathname) => {
    const response = await call(server.url, 'GET', pathname, { token: account.token });
    expect(response.status).toBe(400);
    // Give a stray rejection a moment to surface before the liveness check.
    await new Promise((resolve) => setTimeout(resolve, 100));
  });

  it('answers 300 random requests with well-formed JSON and no 5xx, and lives on', async () => {
    await fc.assert(
      fc.asyncProperty(fuzzCase, async (sample) => {
        const spec = toRequest(sample, account.token);
        checkAnswer(spec, await rawRequest(server.url, spec));
      }),
      { numRuns: 300, interruptAfterTimeLimit: 30_000, markInterruptAsFailure: false },
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
  }, 60_000);
});
