import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { RESULTS_DIR } from './bundle-servers';

const LOCK = path.join(RESULTS_DIR, 'bench.lock');

/**
 * One bench run at a time on a machine: two runs would measure each other's load and overwrite
 * each other's results. The lock holds the owner's pid; a lock whose process is gone is stale
 * and taken over. It is released when this process exits, however it exits.
 */
export function takeRunLock(): void {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(LOCK, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      process.on('exit', () => rmSync(LOCK, { force: true }));
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number(readFileSync(LOCK, 'utf8').trim());
      if (Number.isInteger(owner) && owner > 0 && isAlive(owner)) {
        throw new Error(
          `another bench run (pid ${owner}) is running; runs at once would measure each other ` +
            `(lock: ${path.relative(process.cwd(), LOCK)})`,
        );
      }
      rmSync(LOCK, { force: true });
    }
  }
  throw new Error(`could not take the bench lock ${LOCK}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
