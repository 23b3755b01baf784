import { signUpAndLogIn, type Account } from '../../helpers/accounts';
import { killChildren } from '../../helpers/child-process';
import { healthDuring } from '../../helpers/health-probe';
import { call, isErrorBody } from '../../helpers/http';
import { startMainProcess, type MainProcess } from '../../helpers/main-process';

/** The default body limit (1 MiB): every hostile body below stays under it. */
const BODY_LIMIT = 1024 * 1024;
/** A bounded error: 20 field messages of 100 characters at most, plus the envelope. */
const MAX_ANSWER_BYTES = 4096;
/**
 * Bounds with headroom for a loaded shared machine: before the fix these bodies took 4-8 s each and
 * held `/health` as long. Parsing 1 MB of JSON alone takes tens of milliseconds.
 */
const MAX_REQUEST_MS = 1500;
const MAX_HEALTH_MS = 1000;
const MAX_HEALTH_SAMPLES = 5000;

/** An object with `k<i>` keys beside `base` until its JSON nears `bytes`. */
function wide(base: Record<string, unknown>, bytes: number, value: unknown = 'x'): Record<string, unknown> {
  const data: Record<string, unknown> = { ...base };
  let size = JSON.stringify(base).length;
  const valueSize = JSON.stringify(value).length;
  for (let index = 0; size + 32 < bytes; index++) {
    data[`k${index}`] = value;
    size += `"k${index}":`.length + valueSize + 1;
  }
  return data;
}

/** Sends one hostile request while `/health` is polled one request at a time from another connection. */
async function whileHealthPolled(base: string, send: () => Promise<{ status: number; body: any; text: string }>) {
  const { result, ms, latencies, healthStatuses } = await healthDuring(base, send, {
    pauseMs: 2,
    maxSamples: MAX_HEALTH_SAMPLES,
  });
  return { response: result, ms, latencies, healthStatuses };
}

/**
 * `npm start` on the default (embedded MongoDB) store: data a client sends is checked against
 * the DTO's shape before the validation libraries see it, so no body under the size limit holds
 * the server, and every error answer is bounded (issue 25, finding 3).
 */
describe('bounded validation over HTTP', () => {
  let app: MainProcess;
  let account: Account;
  let messageId: string;

  beforeAll(async () => {
    app = await startMainProcess({ STORE: 'mongo', DATA_DIR: ':memory:' });
    account = await signUpAndLogIn(app.url);
    const created = await call(app.url, 'POST', '/messages', { body: { text: 'hello' }, token: account.token });
    messageId = created.body._id;
  }, 60_000);

  afterAll(async () => {
    await app?.child.stop('SIGTERM');
    await killChildren();
  });

  const signUpExtra = () => wide({ email: 'wide@example.com', password: 'long enough' }, 807 * 1024);
  const cases: [string, () => { method: string; path: () => string; body: unknown; token?: boolean }][] = [
    [
      'the finding: POST /users with 95,000 unknown keys (807 KB)',
      () => ({ method: 'POST', path: () => '/users', body: signUpExtra() }),
    ],
    [
      'POST /users with unknown keys holding objects, up to the body limit',
      () => ({
        method: 'POST',
        path: () => '/users',
        body: wide({ email: 'w@example.com', password: 'long enough' }, BODY_LIMIT, { a: [1] }),
      }),
    ],
    [
      'PATCH /messages/:id with $inc of unknown keys (a nested DTO), up to the body limit',
      () => ({
        method: 'PATCH',
        path: () => `/messages/${messageId}`,
        body: { $inc: wide({}, BODY_LIMIT - 16, 1) },
        token: true,
      }),
    ],
    [
      'POST /users with name as an array of 400,000 numbers',
      () => ({
        method: 'POST',
        path: () => '/users',
        body: { email: 'n@example.com', password: 'long enough', name: Array.from({ length: 400_000 }, () => 0) },
      }),
    ],
    [
      'POST /messages with 300,000 items',
      () => ({
        method: 'POST',
        path: () => '/messages',
        body: Array.from({ length: 300_000 }, () => ({})),
        token: true,
      }),
    ],
    [
      'POST /users with three 340 KB strings',
      () => ({
        method: 'POST',
        path: () => '/users',
        body: { email: `${'a'.repeat(340_000)}@example.com`, password: 'p'.repeat(340_000), name: 'n'.repeat(340_000) },
      }),
    ],
  ];

  it.each(cases)('%s: a bounded 400, quickly, and /health answers meanwhile', async (label, build) => {
    const { method, path, body, token } = build();
    const payload = JSON.stringify(body);
    expect(payload.length).toBeLessThan(BODY_LIMIT);
    const { response, ms, latencies, healthStatuses } = await whileHealthPolled(app.url, () =>
      call(app.url, method, path(), { rawBody: payload, token: token ? account.token : undefined }),
    );
    const worstHealth = Math.max(0, ...latencies);
    console.log(
      `${label}: ${(payload.length / 1024).toFixed(0)} KB body -> ${response.status} in ${ms.toFixed(0)} ms, ` +
        `answer ${response.text.length} bytes; /health x${latencies.length}, worst ${worstHealth.toFixed(1)} ms`,
    );
    expect(response.status).toBe(400);
    expect(isErrorBody(response.body, 400)).toBe(true);
    expect(response.text.length).toBeLessThan(MAX_ANSWER_BYTES);
    expect(ms).toBeLessThan(MAX_REQUEST_MS);
    expect([...healthStatuses]).toEqual(latencies.length > 0 ? [200] : []);
    expect(worstHealth).toBeLessThan(MAX_HEALTH_MS);
  });

  it('names the unknown fields it found, at most 20, and says that more were cut', async () => {
    const response = await call(app.url, 'POST', '/users', { body: signUpExtra() });
    expect(response.body.message).toBe('Invalid data (the first 20 problems are listed; more were cut)');
    expect(Object.keys(response.body.errors)).toHaveLength(20);
    expect(response.body.errors.k0).toEqual(['property k0 should not exist']);
  });

  it('echoes at most 100 characters of a long id or field name (finding 14)', async () => {
    const longId = 'f'.repeat(12_000);
    const byId = await call(app.url, 'GET', `/messages/${longId}`, { token: account.token });
    expect([400, 404]).toContain(byId.status);
    expect(byId.text.length).toBeLessThan(600);
    const longField = `${'q'.repeat(12_000)}`;
    const byField = await call(app.url, 'GET', `/messages?${longField}=1`, { token: account.token });
    expect(byField.status).toBe(400);
    expect(byField.text.length).toBeLessThan(600);
    const unknownData = await call(app.url, 'POST', '/messages', {
      body: { text: 'x', [longField]: 1 },
      token: account.token,
    });
    expect(unknownData.status).toBe(400);
    expect(unknownData.text.length).toBeLessThan(600);
  });
});
