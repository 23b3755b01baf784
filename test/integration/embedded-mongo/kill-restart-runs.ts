import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { MongoClient } from 'mongodb';
import { startChildServer } from './child-server';

export interface KillRestartReport {
  readonly acknowledged: number;
  /** Acknowledged ids missing after each restart. */
  readonly lost: number[];
  readonly restartErrors: string[];
  /** Runs whose killed server was still a zombie when the next one started. */
  readonly zombieRestarts: number;
}

const ROOT = path.resolve(__dirname, '../../..');
const CLI = path.join(ROOT, 'src/embedded-mongo/cli.ts');
const WRITERS = 10;
/** Acknowledged inserts to wait for in each run before the kill, so it lands mid-stream. */
const ACKS_PER_RUN = 60;
const START_TIMEOUT_MS = 20_000;

interface RunningServer {
  readonly url: string;
  /** SIGKILL; resolves once the process is dead (a zombie counts), not necessarily reaped. */
  kill(): Promise<void>;
  /** Ends whatever is left of the run (the non-reaping parent). */
  cleanup(): void;
  readonly zombie: boolean;
}

/**
 * `runs` times: start the CLI server on one data folder, check that every write acknowledged so
 * far is there, stream inserts from several writers, and SIGKILL the server in the middle of it.
 * Every other run hosts the server under a parent that never reaps it, so the next start meets
 * a zombie owner; the others restart without waiting for the reaping either.
 */
export async function killAndRestart(runs: number): Promise<KillRestartReport> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'kill-restart-'));
  const acknowledged = new Set<number>();
  const lost: number[] = [];
  const restartErrors: string[] = [];
  const leftovers: RunningServer[] = [];
  let zombieRestarts = 0;
  let nextId = 0;
  try {
    for (let run = 0; run <= runs; run++) {
      let server: RunningServer;
      try {
        server =
          run % 2 === 1 && existsSync('/proc/self/stat')
            ? await startUnderNonReapingParent(dataDir)
            : await startDirectChild(dataDir);
      } catch (error) {
        restartErrors.push(`run ${run}: ${(error as Error).message.split('\n').slice(0, 3).join(' | ')}`);
        break;
      }
      leftovers.push(server);
      const client = await new MongoClient(server.url, {
        serverSelectionTimeoutMS: 5000,
        retryWrites: false,
        maxPoolSize: WRITERS,
      }).connect();
      const events = client.db('crash').collection<{ _id: number; run: number }>('events');
      const stored = new Set((await events.find({}, { projection: { _id: 1 } }).toArray()).map((doc) => doc._id));
      lost.push([...acknowledged].filter((id) => !stored.has(id)).length);
      if (run === runs) {
        await client.close();
        break;
      }
      const ackedBefore = acknowledged.size;
      let killed = false;
      const writers = Array.from({ length: WRITERS }, async () => {
        // Bounded: the kill comes after ACKS_PER_RUN acks; the cap guards against a stuck loop.
        for (let i = 0; i < 5000 && !killed; i++) {
          const id = nextId++;
          try {
            await events.insertOne({ _id: id, run });
            acknowledged.add(id);
          } catch {
            return; // the server is gone
          }
        }
      });
      for (let waited = 0; acknowledged.size - ackedBefore < ACKS_PER_RUN && waited < 20_000; waited += 2)
        await sleep(2);
      await server.kill();
      killed = true;
      if (server.zombie) zombieRestarts++;
      await Promise.all(writers);
      await client.close(true).catch(() => undefined);
    }
  } finally {
    for (const server of leftovers) server.cleanup();
    await rm(dataDir, { recursive: true, force: true });
  }
  return { acknowledged: acknowledged.size, lost, restartErrors, zombieRestarts };
}

async function startDirectChild(dataDir: string): Promise<RunningServer> {
  const server = await startChildServer(dataDir);
  const pid = server.child.pid!;
  return {
    url: server.url,
    zombie: false,
    kill: async () => {
      server.child.kill('SIGKILL');
      await waitUntil(() => !['R', 'S', 'D'].includes(procState(pid) ?? 'gone'), 'the kill');
    },
    cleanup: () => void server.kill(),
  };
}

/** `sh` starts the server in the background and becomes `sleep`, which never reaps it. */
async function startUnderNonReapingParent(dataDir: string): Promise<RunningServer> {
  const command =
    `"${process.execPath}" -r @swc-node/register "${CLI}" --bind_ip ` +
    `127.0.0.1 --port 0 --dbpath "${dataDir}" & exec sleep 600`;
  const parent: ChildProcess = spawn('sh', ['-c', command], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  parent.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  parent.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  let serverPid: number | undefined;
  const cleanup = (): void => {
    if (serverPid !== undefined) killQuietly(serverPid);
    if (parent.exitCode === null && parent.signalCode === null) parent.kill('SIGKILL');
  };
  try {
    await waitUntil(
      () => /mongodb:\/\/127\.0\.0\.1:\d+\//.test(output),
      `the server's listening line (${output})`,
      START_TIMEOUT_MS,
    );
    serverPid = lockOwnerPid(dataDir);
  } catch (error) {
    cleanup();
    throw error;
  }
  const pid = serverPid;
  return {
    url: /mongodb:\/\/127\.0\.0\.1:\d+\//.exec(output)![0],
    zombie: true,
    kill: async () => {
      process.kill(pid, 'SIGKILL');
      await waitUntil(() => procState(pid) === 'Z', 'the zombie state');
    },
    cleanup,
  };
}

/** The lock names its owner: `{"pid":..}` (or a bare pid, as older versions wrote it). */
function lockOwnerPid(dataDir: string): number {
  const recorded = JSON.parse(readFileSync(path.join(dataDir, 'mongod.lock'), 'utf8')) as number | { pid: number };
  return typeof recorded === 'number' ? recorded : recorded.pid;
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

function procState(pid: number): string | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return text.slice(text.lastIndexOf(')') + 2).split(' ')[0];
  } catch {
    return undefined;
  }
}

async function waitUntil(condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !condition(); await sleep(10)) {
    if (Date.now() > deadline) throw new Error(`${what} not seen within ${timeoutMs} ms`);
  }
}
