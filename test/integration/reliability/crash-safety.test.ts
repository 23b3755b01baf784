import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { signUpAndLogIn } from '../../helpers/accounts';
import { killChildren } from '../../helpers/child-process';
import { call } from '../../helpers/http';
import { startMainProcess, type MainProcess } from '../../helpers/main-process';

const WRITERS = 8;
/** Acknowledged messages to wait for before the kill, so it lands in the middle of the stream. */
const ACKED_BEFORE_KILL = 150;

/**
 * `npm start` on the embedded store, killed with SIGKILL in the middle of a stream of
 * `POST /messages`: after a restart on the same DATA_DIR, every message that got a 201 is there.
 * (A request cut by the kill may or may not have been stored; only acknowledged ones count.)
 */
describe('reliability: crash safety end to end (SIGKILL during acknowledged writes)', () => {
  let dataDir: string;

  beforeAll(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'crash-'));
  });
  afterAll(async () => {
    await killChildren();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('loses no acknowledged message', async () => {
    const env = { STORE: 'mongo', DATA_DIR: dataDir };
    const first: MainProcess = await startMainProcess(env);
    const { token } = await signUpAndLogIn(first.url);

    const acknowledged: string[] = [];
    let killed = false;
    let sequence = 0;
    const writer = async (): Promise<void> => {
      // Bounded: the kill comes after ACKED_BEFORE_KILL acks; the cap only guards against a stuck loop.
      while (!killed && sequence < 50_000) {
        const text = `message ${sequence++}`;
        try {
          const response = await call(first.url, 'POST', '/messages', { token, body: { text } });
          if (response.status !== 201) throw new Error(`unexpected ${response.status}: ${response.text}`);
          acknowledged.push(response.body._id);
        } catch (error) {
          if (!killed) throw error;
        }
      }
    };
    const writers = Array.from({ length: WRITERS }, writer);
    await waitFor(() => acknowledged.length >= ACKED_BEFORE_KILL, 30_000);
    killed = true;
    first.child.process.kill('SIGKILL');
    await first.child.exited;
    await Promise.all(writers);
    const count = acknowledged.length;
    expect(count).toBeGreaterThanOrEqual(ACKED_BEFORE_KILL);

    const second = await startMainProcess(env);
    const missing: string[] = [];
    for (let index = 0; index < count; index += 10) {
      const batch = acknowledged.slice(index, index + 10);
      const answers = await Promise.all(batch.map((id) => call(second.url, 'GET', `/messages/${id}`, { token })));
      answers.forEach((answer, offset) => {
        if (answer.status !== 200) missing.push(`${batch[offset]}: ${answer.status}`);
      });
    }
    expect(missing).toEqual([]);
    await second.child.stop('SIGTERM');
  }, 90_000);
});

async function waitFor(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
