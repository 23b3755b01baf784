import { existsSync } from 'node:fs';
import { killAndRestart } from './kill-restart-runs';

const RUNS = 20;
const zombies = existsSync('/proc/self/stat');
if (!zombies) console.log('kill-restart: no /proc here, so no run leaves a zombie owner (Linux only)');

describe('embedded mongo: SIGKILL during acknowledged writes, then restart on the same folder', () => {
  it(
    `${RUNS} runs in a row: every restart succeeds (half of them over a ` +
      'zombie owner) and no acknowledged write is lost',
    async () => {
      const started = Date.now();
      const report = await killAndRestart(RUNS);
      console.log(
        `kill-restart: ${RUNS} runs, ${report.zombieRestarts} over a zombie, ${report.acknowledged} ` +
          `acknowledged writes, ${Math.round((Date.now() - started) / 1000)} s`,
      );
      expect(report.restartErrors).toEqual([]);
      expect(report.lost).toEqual(Array(RUNS + 1).fill(0));
      expect(report.acknowledged).toBeGreaterThanOrEqual(RUNS * 60);
      if (zombies) expect(report.zombieRestarts).toBe(RUNS / 2);
    },
    120_000,
  );
});
