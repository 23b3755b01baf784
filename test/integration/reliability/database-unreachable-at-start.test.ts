import { killChildren, spawnTs } from '../../helpers/child-process';
import { freePort } from '../../helpers/free-port';

/** With the store out of reach, start-up gives up within DATABASE_TIMEOUT_MS and says so in one line. */
describe('reliability: database unreachable at start', () => {
  afterAll(killChildren);

  it('exits non-zero within the bound with one stderr line naming the database', async () => {
    const closedPort = await freePort();
    const startedAt = Date.now();
    // The operation timeout is far longer than the start-up budget: the budget alone must bound the wait.
    const child = spawnTs('src/main.ts', [], {
      MONGODB_URL: `mongodb://127.0.0.1:${closedPort}/app`,
      DATABASE_TIMEOUT_MS: '1000',
      DATABASE_OPERATION_TIMEOUT_MS: '60000',
      AUTH_SECRET: 'x'.repeat(40),
      LOG_LEVEL: 'info',
    });
    const exit = await Promise.race([
      child.exited,
      new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), 12_000).unref()),
    ]);
    expect(exit).not.toBe('hung');
    // 1 s of waiting plus process start-up (swc compiling on the fly) stays well inside 12 s.
    expect(Date.now() - startedAt).toBeLessThan(12_000);
    expect(exit).toMatchObject({ code: 1, signal: null });
    const lines = child.stderr.split('\n').filter((line) => line.trim() !== '');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^start-up failed: Could not reach the database at MONGODB_URL within 1000 ms: .*ECONNREFUSED/,
    );
    expect(child.stdout).not.toMatch(/listening on/);
  });
});
