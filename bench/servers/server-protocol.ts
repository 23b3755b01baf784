import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getHeapSpaceStatistics, getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { WindowProfiler } from './cpu-profiler';

/**
 * What a server child and the harness tell each other over the IPC channel, and the settings
 * both sides share (passed to the child in its environment).
 */
export interface ReadyMessage {
  type: 'ready';
  /** The HTTP port (or the wire port of a database-only child). */
  port: number;
  /** An id that `GET /messages/<id>` finds (ObjectId hex on the database store). */
  sampleId: string;
  /** Set by children that host an embedded database. */
  mongoUrl?: string;
}

export interface FailedMessage {
  type: 'failed';
  error: string;
}

/** The child's V8 heap, on request: to tell V8's own young-generation sizing from retained memory. */
export interface HeapMessage {
  type: 'heap';
  /** Committed size of the young generation (new space), in MB: V8 grows it under load, up to a fixed maximum. */
  youngGenerationMb: number;
  /** Memory held by live objects (after the full collection, when one was asked for), in MB. */
  usedHeapMb: number;
}

/** What the harness asks the child for: its heap, optionally after a full garbage collection. */
export interface HeapRequest {
  type: 'heap';
  collect?: boolean;
}

export type ChildMessage = ReadyMessage | FailedMessage | HeapMessage;

export const SEEDED_MESSAGES = 100;
export const PAGINATE = { default: 10, max: 50 };

/** The environment a server child reads its settings from. */
export interface ServerSettings {
  /** `memory` (MemoryService / an in-memory array) or `mongo` (DatabaseService on the embedded server). */
  store: 'memory' | 'mongo';
  /** Verify a bearer JWT on every `messages` call. */
  auth: boolean;
  secret: string;
  /** Fastify baseline only: register @fastify/helmet (the framework always sends helmet's headers). */
  helmet?: boolean;
  /** Framework only, with `auth`: `messages` gets a policy (store query, answer's fields, written fields). */
  policy?: boolean;
  /**
   * Framework only: trace every call (server, service and store spans) with this sampling ratio
   * (1: every request, 0.01: one in a hundred), exported over OTLP to a sink in a process of its own.
   * Unset: tracing off, as in an application without `OTEL_*` variables.
   */
  tracingRatio?: number;
}

export function settingsToEnv(settings: ServerSettings): Record<string, string> {
  return {
    BENCH_STORE: settings.store,
    BENCH_AUTH: settings.auth ? '1' : '0',
    BENCH_SECRET: settings.secret,
    BENCH_HELMET: settings.helmet ? '1' : '0',
    BENCH_POLICY: settings.policy ? '1' : '0',
    BENCH_TRACING_RATIO: settings.tracingRatio === undefined ? '' : String(settings.tracingRatio),
  };
}

/** The mongo-server child keeps its data in this folder when the variable is set (in memory otherwise). */
export const MONGO_DATA_DIR_ENV = 'BENCH_MONGO_DATA_DIR';
/**
 * `two-roles`: the real-time server gives its `messages` a policy, each connection a user, every other one an admin.
 */
export const REALTIME_POLICY_ENV = 'BENCH_REALTIME_POLICY';

/**
 * Set to `1`, the mongo-server child runs the server in its own thread instead of a worker, so
 * that heap readings taken in that thread (the allocation windows) see the server's allocations.
 */
export const MONGO_IN_THREAD_ENV = 'BENCH_MONGO_IN_THREAD';

export function settingsFromEnv(env: NodeJS.ProcessEnv = process.env): ServerSettings {
  return {
    store: env.BENCH_STORE === 'mongo' ? 'mongo' : 'memory',
    auth: env.BENCH_AUTH === '1',
    secret: env.BENCH_SECRET ?? 'bench-secret',
    helmet: env.BENCH_HELMET === '1',
    policy: env.BENCH_POLICY === '1',
    tracingRatio: env.BENCH_TRACING_RATIO ? Number(env.BENCH_TRACING_RATIO) : undefined,
  };
}

/**
 * The bench's one user and the claims of its access token: the framework's JWT defaults
 * (`typ: access`, audience, issuer), so the framework's own authentication accepts it and the
 * Express side checks the same claims.
 */
export const BENCH_USER = { id: 0, email: 'bench@example.com', name: 'Bench' };
export const BENCH_TOKEN_CLAIMS = {
  subject: String(BENCH_USER.id),
  audience: 'hexa-services',
  issuer: 'hexa-services',
  typ: 'access',
} as const;

export function seedMessage(index: number): { text: string; userId: number } {
  return { text: `Message number ${index}`, userId: index % 10 };
}

/**
 * Announces readiness to the harness, profiles the measured window on request, and exits
 * cleanly (writing the profile) when told to stop or when the harness goes away.
 */
export function serveUntilStopped(ready: ReadyMessage, stop: () => Promise<void>): void {
  const profiler = new WindowProfiler();
  let stopping = false;
  const shutdown = (): void => {
    if (stopping) return;
    stopping = true;
    const exit = (): never => process.exit(0);
    setTimeout(exit, 4000).unref();
    profiler.finish().then(stop).then(exit, exit);
  };
  process.on('message', (message: { type?: string; collect?: boolean }) => {
    if (message?.type === 'stop') shutdown();
    if (message?.type === 'profile-start') profiler.start();
    if (message?.type === 'heap') {
      if (message.collect === true) collectGarbage();
      process.send?.(heapMessage());
    }
  });
  process.on('disconnect', shutdown);
  process.on('SIGTERM', shutdown);
  process.send?.(ready);
}

/** Serves `server` on a free port of 127.0.0.1 until stopped; stopping closes its connections, then it. */
export function listenUntilStopped(server: Server, sampleId: string): void {
  server.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as AddressInfo;
    serveUntilStopped({ type: 'ready', port, sampleId }, async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    });
  });
}

let gc: (() => void) | undefined;

/**
 * A full, blocking collection, so that a memory reading shows what is retained rather than where
 * the collector happens to be. The child starts without `--expose-gc` (its measured runs are not
 * changed); the flag is set and `gc` fetched only on the first request for a collection.
 */
export function collectGarbage(): void {
  if (!gc) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  }
  gc();
}

function heapMessage(): HeapMessage {
  const mb = (bytes: number) => bytes / (1024 * 1024);
  let young = 0;
  for (const space of getHeapSpaceStatistics()) {
    if (space.space_name === 'new_space' || space.space_name === 'new_large_object_space') young += space.space_size;
  }
  return { type: 'heap', youngGenerationMb: mb(young), usedHeapMb: mb(getHeapStatistics().used_heap_size) };
}

export function reportFailure(error: unknown): void {
  const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
  if (process.send) process.send({ type: 'failed', error: text } satisfies FailedMessage, () => process.exit(1));
  else {
    console.error(text);
    process.exit(1);
  }
}
