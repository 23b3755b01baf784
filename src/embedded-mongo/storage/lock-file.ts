import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { EmbeddedMongoLogger } from '../logger';
import { LOCK_FILE } from './journal-files';

/**
 * One server per dataDir: the lock file holds the owner's pid. A lock whose pid is no longer
 * running (the owner crashed) is taken over, with a log line. Returns the release function.
 */
export async function acquireDataDirLock(dataDir: string, logger: EmbeddedMongoLogger): Promise<() => Promise<void>> {
  const file = path.join(dataDir, LOCK_FILE);
  for (let attempt = 0; attempt < 3; attempt++) {
    if (await createWithPid(file)) return () => releaseLock(file);
    const owner = await readOwner(file);
    if (owner !== undefined && isRunning(owner)) {
      throw new Error(`dataDir ${dataDir} is in use by another server (pid ${owner}, lock file ${file})`);
    }
    logger.warn('taking over a stale dataDir lock', { file, previousOwner: owner ?? 'unreadable' });
    await fs.rm(file, { force: true });
  }
  throw new Error(`could not lock dataDir ${dataDir}: ${file} keeps reappearing`);
}

/** Written aside, then hard-linked into place: the lock never exists without its pid. */
async function createWithPid(file: string): Promise<boolean> {
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  await fs.writeFile(temporary, `${process.pid}\n`);
  try {
    await fs.link(temporary, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return false;
  } finally {
    await fs.rm(temporary, { force: true });
  }
}

async function releaseLock(file: string): Promise<void> {
  if ((await readOwner(file)) === process.pid) await fs.rm(file, { force: true });
}

async function readOwner(file: string): Promise<number | undefined> {
  const content = await fs.readFile(file, 'utf8').catch(() => '');
  const pid = Number.parseInt(content.trim(), 10);
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

/** Our own pid counts as running: a second server in this process must be refused too. */
function isRunning(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
