import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { signUpAndLogIn } from '../../helpers/accounts';
import { killChildren } from '../../helpers/child-process';
import { call } from '../../helpers/http';
import { startMainProcess } from '../../helpers/main-process';

const CLIENTS = 20;
const EXIT_BOUND_MS = 15_000;

/**
 * Connection-level failures that mean "not served": refused, or a kept-alive socket closed before
 * the request was read.
 */
const CLEAN_REFUSALS = new Set(['ECONNREFUSED', 'ECONNRESET', 'UND_ERR_SOCKET', 'EPIPE']);

type Outcome =
  | { kind: 'ok'; text: string }
  | { kind: 'unavailable'; text: string }
  | { kind: 'refused'; text: string; code: string };

/**
 * SIGTERM while 20 keep-alive clients write: every request either completes (2xx) or is refused
 * without being served (connection refused/closed, or 503 before any work); nothing is half
 * done, which a restart on the same data shows: exactly the acknowledged messages are stored.
 * The process exits 0 within the bound.
 */
describe('reliability: graceful shutdown under load', () => {
  let dataDir: string;

  beforeAll(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'shutdown-'));
  });
  afterAll(async () => {
    await killChildren();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('completes or cleanly refuses every request and exits within the bound', async () => {
    const env = { STORE: 'mongo', DATA_DIR: dataDir };
    const server = await startMainProcess(env);
    const { token } = await signUpAndLogIn(server.url);

    const outcomes: Outcome[] = [];
    const unexpected: string[] = [];
    let sequence = 0;
    const client = async (): Promise<void> => {
      // Until the process is gone (bounded by the exit bound below, and by a count cap).
      while (server.child.running && sequence < 100_000) {
        const text = `shutdown ${sequence++}`;
        try {
          const response = await call(server.url, 'POST', '/messages', { token, body: { text } });
          if (response.status === 201) outcomes.push({ kind: 'ok', text });
          else if (response.status === 503 && response.body?.name === 'Unavailable')
            outcomes.push({ kind: 'unavailable', text });
          else unexpected.push(`${text}: ${response.status} ${response.text.slice(0, 200)}`);
        } catch (error) {
          const code = connectionErrorCode(error);
          if (code && CLEAN_REFUSALS.has(code)) outcomes.push({ kind: 'refused', text, code });
          else unexpected.push(`${text}: ${String((error as Error).cause ?? error)}`);
        }
      }
    };
    const clients = Array.from({ length: CLIENTS }, client);
    await waitFor(() => outcomes.length >= 200, 30_000);

    const signalledAt = Date.now();
    server.child.process.kill('SIGTERM');
    const exit = await Promise.race([
      server.child.exited,
      new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), EXIT_BOUND_MS).unref()),
    ]);
    expect(exit).toEqual({ code: 0, signal: null });
    expect(Date.now() - signalledAt).toBeLessThan(EXIT_BOUND_MS);
    await Promise.all(clients);
    expect(unexpected).toEqual([]);

    const acknowledged = new Set(outcomes.filter((outcome) => outcome.kind === 'ok').map((outcome) => outcome.text));
    const restarted = await startMainProcess(env);
    const stored = await allMessageTexts(restarted.url, token);
    await restarted.child.stop('SIGTERM');
    // Acknowledged ones are all there, and nothing refused was done behind the client's back.
    expect([...acknowledged].filter((text) => !stored.has(text))).toEqual([]);
    expect([...stored].filter((text) => !acknowledged.has(text))).toEqual([]);
  }, 120_000);
});

function connectionErrorCode(error: unknown): string | undefined {
  const cause = (error as { cause?: { code?: unknown } }).cause;
  return typeof cause?.code === 'string' ? cause.code : undefined;
}

/** Every message text of the user, page by page. */
async function allMessageTexts(base: string, token: string): Promise<Set<string>> {
  const texts = new Set<string>();
  for (let skip = 0; ; skip += 50) {
    const page = await call(base, 'GET', `/messages?$limit=50&$skip=${skip}&$sort[createdAt]=1`, { token });
    if (page.status !== 200) throw new Error(`find failed: ${page.status} ${page.text}`);
    for (const message of page.body.data) texts.add(message.text);
    if (skip + 50 >= page.body.total) return texts;
  }
}

async function waitFor(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
