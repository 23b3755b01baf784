import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { EmbeddedMongoLogger } from '../base/logger';
import { LOCK_FILE } from './journal-files';
import { currentProcessIdentity, isProcessAlive, type ProcessIdentity } from './process-identity';

const MAX_ATTEMPTS = 50;

/** What the refusal tells someone who started a second instance on the same folder. */
const ONE_SERVER_PER_FOLDER =
  'A data folder serves one server: several instances of one application share a MongoDB instead (the same ' +
  'MONGODB_URL); ' +
  'see docs/deploying.md';

/**
 * One server per dataDir: the lock file names its owner by pid, process start time and boot
 * (see `ProcessIdentity`). A lock whose owner no longer runs (crashed, a zombie, or its pid now
 * belongs to another process, ours included) is taken over with a log line; a live owner is
 * refused. Returns the release function.
 */
export async function acquireDataDirLock(dataDir: string, logger: EmbeddedMongoLogger): Promise<() => Promise<void>> {
  const file = path.join(dataDir, LOCK_FILE);
  const me = currentProcessIdentity();
  const content = `${JSON.stringify(me)}\n`;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    if (await createExclusive(file, content)) return () => releaseLock(file, content);
    const recorded = await readText(file);
    if (recorded === undefined) continue; // released meanwhile
    const owner = parseOwner(recorded);
    if (owner && ownerRuns(owner, me)) {
      throw new Error(
        `dataDir ${dataDir} is in use by another server (pid ${owner.pid}, lock ` +
          `file ${file}). ${ONE_SERVER_PER_FOLDER}`,
      );
    }
    await takeOver(file, recorded, content, () =>
      logger.warn('taking over a stale dataDir lock', { file, previousOwner: owner?.pid ?? 'unreadable' }),
    );
  }
  throw new Error(`could not lock dataDir ${dataDir}: ${file} keeps changing hands`);
}

/** A record without a start time comes from an older version; one naming our own pid is a previous run's. */
function ownerRuns(owner: ProcessIdentity, me: ProcessIdentity): boolean {
  if (owner.startTicks === undefined && me.startTicks !== undefined && owner.pid === me.pid) return false;
  return isProcessAlive(owner);
}

/**
 * Removes the stale lock, guarded by a second lock file so that two servers starting together
 * cannot both judge it stale and each remove the other's fresh lock.
 */
async function takeOver(file: string, stale: string, content: string, announce: () => void): Promise<void> {
  const guard = `${file}.takeover`;
  if (!(await createExclusive(guard, content))) {
    const guardOwner = parseOwner((await readText(guard)) ?? '');
    if (guardOwner && isProcessAlive(guardOwner))
      await sleep(20); // another start is taking over
    else await fs.rm(guard, { force: true }); // left by a start that crashed mid-takeover
    return;
  }
  try {
    if ((await readText(file)) !== stale) return;
    announce();
    await fs.rm(file, { force: true });
  } finally {
    await fs.rm(guard, { force: true });
  }
}

/** Written aside, then hard-linked into place: the lock never exists without its owner. */
async function createExclusive(file: string, content: string): Promise<boolean> {
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  await fs.writeFile(temporary, content);
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

async function releaseLock(file: string, content: string): Promise<void> {
  if ((await readText(file)) === content) await fs.rm(file, { force: true });
}

async function readText(file: string): Promise<string | undefined> {
  return fs.readFile(file, 'utf8').catch(() => undefined);
}

/** `{"pid":..,"startTicks":..,"bootId":..}`, or a bare pid as older versions (and mongod) write. */
function parseOwner(text: string): ProcessIdentity | undefined {
  const trimmed = text.trim();
  if (/^\d+$/.test(trimmed)) return { pid: Number(trimmed) };
  try {
    const record = JSON.parse(trimmed) as Partial<Record<keyof ProcessIdentity, unknown>>;
    if (!Number.isSafeInteger(record.pid) || (record.pid as number) <= 0) return undefined;
    return {
      pid: record.pid as number,
      startTicks: typeof record.startTicks === 'string' ? record.startTicks : undefined,
      bootId: typeof record.bootId === 'string' ? record.bootId : undefined,
    };
  } catch {
    return undefined;
  }
}
