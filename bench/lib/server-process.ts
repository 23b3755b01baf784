import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { ChildMessage, HeapMessage, HeapRequest, ReadyMessage, ServerSettings } from '../servers/server-protocol';
import { settingsToEnv } from '../servers/server-protocol';
import type { Pinning } from './cpu-pinning';

const START_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 5_000;

export interface ServerProcess extends ReadyMessage {
  readonly label: string;
  readonly url: string;
  readonly pid: number;
  /** Resident memory in MB, from /proc/<pid>/status (VmRSS). */
  rssMb(): number | undefined;
  /**
   * The child's V8 young-generation size and live heap, after a full garbage
   * collection when `collect` is set; undefined if it does not answer within 2 s.
   */
  heap(collect?: boolean): Promise<HeapMessage | undefined>;
  /** CPU time used so far, in ms (user + system). */
  cpuMs(): number | undefined;
  /** Sends `message` and resolves with the child's first reply of type `replyType` (undefined after `timeoutMs`). */
  ask<T extends { type: string }>(message: object, replyType: string, timeoutMs?: number): Promise<T | undefined>;
  /** Starts the child's CPU profile (when started with a `profileDir`); call it after warm-up. */
  startProfiling(): void;
  stop(): Promise<void>;
}

export interface StartOptions {
  label: string;
  script: string;
  settings?: ServerSettings;
  /** Extra environment for the child (e.g. the embedded server's dataDir). */
  env?: Record<string, string>;
  pinning: Pinning;
  /** Directory for a CPU profile of the window from `startProfiling()` to `stop()`. */
  profileDir?: string;
  /** How long the child may take to report ready (default 30 s; recovering a large data folder takes longer). */
  startTimeoutMs?: number;
}

const running = new Set<ChildProcess>();

/** Kills whatever children are still up (on errors and signals), so no server outlives the run. */
export function killAllServers(): void {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
}

/** CPU time (user + system) the process has used so far, in ms, from /proc/<pid>/stat. */
export function readCpuMs(pid: number): number | undefined {
  try {
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

const CLOCK_TICKS_PER_SECOND = 100;

export function readRssMb(pid: number): number | undefined {
  try {
    const match = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

function requestHeap(child: ChildProcess, collect: boolean): Promise<HeapMessage | undefined> {
  return ask<HeapMessage>(child, { type: 'heap', collect } satisfies HeapRequest, 'heap');
}

function ask<T extends { type: string }>(
  child: ChildProcess,
  request: object,
  replyType: string,
  timeoutMs = 2000,
): Promise<T | undefined> {
  if (!child.connected) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const onMessage = (message: { type?: string }) => {
      if (message?.type !== replyType) return;
      done(message as T);
    };
    const timer = setTimeout(() => done(undefined), timeoutMs);
    const done = (message: T | undefined) => {
      clearTimeout(timer);
      child.off('message', onMessage);
      resolve(message);
    };
    child.on('message', onMessage);
    child.send(request);
  });
}

/** Starts a server child on the server core and resolves once it reports its port. */
export async function startServer(options: StartOptions): Promise<ServerProcess> {
  const { command, args } = options.pinning.serverCommand([options.script]);
  const profiling = options.profileDir
    ? { BENCH_PROFILE_DIR: options.profileDir, BENCH_PROFILE_LABEL: options.label }
    : {};
  const child = spawn(command, args, {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: {
      ...process.env,
      NODE_ENV: 'production',
      ...(options.settings ? settingsToEnv(options.settings) : {}),
      ...options.env,
      ...profiling,
    },
  });
  running.add(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  exited.then(
    () => running.delete(child),
    () => undefined,
  );

  const ready = await new Promise<ReadyMessage>((resolve, reject) => {
    const startTimeoutMs = options.startTimeoutMs ?? START_TIMEOUT_MS;
    const timer = setTimeout(
      () => reject(new Error(`${options.label} did not start within ${startTimeoutMs} ms`)),
      startTimeoutMs,
    );
    child.on('message', (message: ChildMessage) => {
      clearTimeout(timer);
      if (message.type === 'ready') resolve(message);
      else if (message.type === 'failed') reject(new Error(`${options.label} failed to start: ${message.error}`));
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${options.label} exited with ${code} before it was ready`));
    });
  }).catch((error: unknown) => {
    child.kill('SIGKILL');
    throw error;
  });

  const pid = child.pid!;
  return {
    ...ready,
    label: options.label,
    url: `http://127.0.0.1:${ready.port}`,
    pid,
    rssMb: () => readRssMb(pid),
    cpuMs: () => readCpuMs(pid),
    heap: (collect = false) => requestHeap(child, collect),
    ask: (message, replyType, timeoutMs) => ask(child, message, replyType, timeoutMs),
    startProfiling: () => {
      if (options.profileDir && child.connected) child.send({ type: 'profile-start' });
    },
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.send({ type: 'stop' });
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
    },
  };
}
