import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startEmbeddedMongo } from '../../../src/embedded-mongo';
import { startChildServer, type ChildServer } from './child-server';
import { recordingLogger } from './embedded-mongo-fixture';

jest.setTimeout(60_000);

const ROOT = path.resolve(__dirname, '../../..');
const CLI = path.join(ROOT, 'src/embedded-mongo/cli.ts');
const linux = existsSync('/proc/self/stat');
if (!linux) console.log('data-dir-lock: zombie and pid-reuse cases need /proc (Linux); skipped here');
const onLinux = linux ? test : test.skip;

/** Fields of /proc/<pid>/stat after the command name: [state, ..., starttime at index 19]. */
function procStat(pid: number): string[] | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return text.slice(text.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

const bootId = (): string => readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();

async function waitUntil(condition: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !condition(); await sleep(20)) {
    if (Date.now() > deadline) throw new Error(`${what} not seen within ${timeoutMs} ms`);
  }
}

describe('embedded mongo: the dataDir lock', () => {
  let dataDir: string;
  let lockFile: string;
  const children: ChildProcess[] = [];
  /** Grandchildren (the server under the non-reaping parent) to kill by pid. */
  const strayPids: number[] = [];
  let childServer: ChildServer | undefined;

  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'embedded-lock-'));
    lockFile = path.join(dataDir, 'mongod.lock');
  });
  afterEach(async () => {
    await childServer?.kill();
    childServer = undefined;
    for (const pid of strayPids.splice(0)) killQuietly(pid);
    for (const child of children.splice(0))
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
  });

  /** Starts a server on the folder, expects it to have taken over a stale lock naming `pid`, stops it. */
  async function expectTakeOver(pid: number): Promise<void> {
    const logger = recordingLogger();
    const server = await startEmbeddedMongo({ dataDir, logger });
    expect(JSON.parse(await readFile(lockFile, 'utf8'))).toMatchObject({ pid: process.pid });
    await server.stop();
    expect(logger.lines.filter((line) => line.startsWith('taking over a stale dataDir lock'))).toEqual([
      expect.stringContaining(`"previousOwner":${pid}`),
    ]);
    expect(await readdir(dataDir)).not.toContain('mongod.lock');
  }

  test('a second server on the folder, in this process or another, is refused with a clear message', async () => {
    const first = await startEmbeddedMongo({ dataDir, logger: recordingLogger() });
    try {
      const owner = JSON.parse(await readFile(lockFile, 'utf8')) as { pid: number };
      expect(owner.pid).toBe(process.pid);
      await expect(startEmbeddedMongo({ dataDir, logger: recordingLogger() })).rejects.toThrow(
        `dataDir ${dataDir} is in use by another server (pid ${process.pid}, lock ` +
          `file ${lockFile}). A data folder serves one server: ` +
          'several instances of one application share a MongoDB instead (the same ' +
          'MONGODB_URL); see docs/deploying.md',
      );
    } finally {
      await first.stop();
    }
    expect(await readdir(dataDir)).not.toContain('mongod.lock');

    childServer = await startChildServer(dataDir);
    await expect(startEmbeddedMongo({ dataDir, logger: recordingLogger() })).rejects.toThrow(
      `is in use by another server (pid ${childServer.child.pid}`,
    );
  });

  test('a lock left by an owner that exited is taken over', async () => {
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
    await writeFile(lockFile, `${dead}\n`);
    await expectTakeOver(dead);
  });

  onLinux('a lock held by a zombie (killed, never reaped by its parent) is taken over', async () => {
    // sh starts the server in the background, then becomes `sleep`, which never reaps it.
    const holder = spawn(
      'sh',
      ['-c', `"${process.execPath}" -r @swc-node/register "${CLI}" --port 0 --dbpath "${dataDir}" & exec sleep 60`],
      {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    children.push(holder);
    let output = '';
    holder.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    holder.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await waitUntil(() => output.includes('mongodb://'), `the server's listening line (${output})`);
    const serverPid = (JSON.parse(readFileSync(lockFile, 'utf8')) as { pid: number }).pid;
    strayPids.push(serverPid);
    expect(procStat(serverPid)![1]).toBe(String(holder.pid)); // its parent is the non-reaping sleep
    await expect(startEmbeddedMongo({ dataDir, logger: recordingLogger() })).rejects.toThrow(
      `in use by another server (pid ${serverPid}`,
    );

    process.kill(serverPid, 'SIGKILL');
    await waitUntil(() => procStat(serverPid)?.[0] === 'Z', 'the zombie state');
    expect(() => process.kill(serverPid, 0)).not.toThrow(); // signal 0 still "finds" it: the old lock refused this
    await expectTakeOver(serverPid);
    holder.kill('SIGKILL');
    await once(holder, 'exit');
  });

  onLinux('a lock naming a live unrelated process (its pid reused) is taken over', async () => {
    const unrelated = spawn('sleep', ['60'], { stdio: 'ignore' });
    children.push(unrelated);
    await waitUntil(() => procStat(unrelated.pid!) !== undefined, 'the sleeping process');
    const startTicks = String(Number(procStat(unrelated.pid!)![19]) - 100); // the crashed owner started earlier
    await writeFile(lockFile, `${JSON.stringify({ pid: unrelated.pid, startTicks, bootId: bootId() })}\n`);
    await expectTakeOver(unrelated.pid!);
    expect(unrelated.exitCode).toBeNull(); // untouched
  });

  onLinux(
    'a lock naming our own pid, written by a previous run (same pid, as a container entry process gets), is taken over',
    async () => {
      const ourStart = procStat(process.pid)![19];
      await writeFile(
        lockFile,
        `${JSON.stringify({ pid: process.pid, startTicks: String(Number(ourStart) - 1), bootId: bootId() })}\n`,
      );
      await expectTakeOver(process.pid);
      // ...also in the format older versions wrote (the bare pid), and from an earlier boot.
      await writeFile(lockFile, `${process.pid}\n`);
      await expectTakeOver(process.pid);
      await writeFile(
        lockFile,
        `${JSON.stringify({ pid: process.pid, startTicks: ourStart, bootId: 'another-boot' })}\n`,
      );
      await expectTakeOver(process.pid);
    },
  );

  test('two servers starting together over a stale lock: exactly one gets the folder', async () => {
    for (let round = 0; round < 3; round++) {
      const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
      await writeFile(lockFile, `${dead}\n`);
      const starts = await Promise.allSettled(
        [0, 1, 2].map(() => startEmbeddedMongo({ dataDir, logger: recordingLogger() })),
      );
      const started = starts.flatMap((start) => (start.status === 'fulfilled' ? [start.value] : []));
      const refused = starts.flatMap((start) => (start.status === 'rejected' ? [(start.reason as Error).message] : []));
      await Promise.all(started.map((server) => server.stop()));
      expect(started).toHaveLength(1);
      expect(refused).toEqual([
        expect.stringContaining('is in use by another server'),
        expect.stringContaining('is in use by another server'),
      ]);
    }
  });

  test('an unreadable lock file is taken over', async () => {
    await writeFile(lockFile, 'not a lock\n');
    const logger = recordingLogger();
    const server = await startEmbeddedMongo({ dataDir, logger });
    await server.stop();
    expect(logger.lines).toEqual([expect.stringContaining('"previousOwner":"unreadable"')]);
  });
});
