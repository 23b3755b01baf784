import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MongoClient, type Collection } from 'mongodb';
import { alternate } from '../lib/alternate';
import { emptyResult, selected, type BenchContext, type Suite } from '../lib/bench-context';
import { measureCallTime } from '../lib/call-loop';
import { meets, type SuiteResult } from '../lib/results';
import { startServer, type ServerProcess } from '../lib/server-process';
import { median, round } from '../lib/stats';
import { LARGE_COLLECTION, LARGE_DB, writeDataFolder } from '../lib/write-data-folder';
import type { AllocationMessage } from '../servers/allocation-window';
import {
  MONGO_DATA_DIR_ENV,
  MONGO_IN_THREAD_ENV,
  type HeapMessage,
  type HeapRequest,
} from '../servers/server-protocol';

const SMALL = 10_000;
const LARGE = 1_000_000;
/** Recovering a million documents on a loaded machine: far more than the usual 30 s may be needed. */
const START_TIMEOUT_MS = 300_000;
/** Calls per allocation window: short enough to fit in the young generation between collections. */
const WINDOW_CALLS = 50;
const CLEAN_WINDOWS = 7;

interface Sized {
  readonly label: string;
  readonly count: number;
  readonly dataDir: string;
}

/**
 * Benchmark 8: the embedded server at 1,000,000 documents of about 200 bytes (a data folder
 * written directly in the server's snapshot format, recovered at start-up), against the same
 * server at 10,000 in the same run: start-up time, memory after load, an indexed `findOne`, and
 * the memory one `find().limit(10)` allocates in the server process.
 */
export const largeSuite: Suite = {
  name: 'large',
  title: 'Embedded server at 1,000,000 documents: start-up, memory, indexed findOne, allocation per find',
  async run(context: BenchContext) {
    const result = emptyResult(this, context);
    const root = mkdtempSync(path.join(os.tmpdir(), 'bench-large-'));
    try {
      const small: Sized = { label: '10,000 documents', count: SMALL, dataDir: path.join(root, 'small') };
      const large: Sized = { label: '1,000,000 documents', count: LARGE, dataDir: path.join(root, 'large') };
      for (const sized of [small, large]) {
        const started = performance.now();
        const { documentBytes } = await writeDataFolder(sized.dataDir, sized.count);
        result.notes.push(
          `${sized.label}: data folder written in ${((performance.now() - started) / 1000).toFixed(1)} s, ` +
            `${(documentBytes / sized.count).toFixed(0)} bytes of BSON per ` +
            `document, ${(documentBytes / 2 ** 20).toFixed(0)} MiB in all`,
        );
      }
      const start = (sized: Sized) =>
        startServer({
          label: `embedded-mongo-${sized.count}`,
          script: context.scripts['mongo-server'],
          env: { [MONGO_DATA_DIR_ENV]: sized.dataDir, [MONGO_IN_THREAD_ENV]: '1' },
          pinning: context.pinning,
          profileDir: context.profileDir,
          startTimeoutMs: START_TIMEOUT_MS,
        });
      if (selected(context, 'large-startup')) await measureStartup(context, result, small, large, start);
      const servers = [await start(small), await start(large)];
      try {
        await measureMemory(result, servers);
        await measureLookupsAndAllocation(context, result, servers);
      } finally {
        await Promise.all(servers.map((server) => server.stop()));
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
    return result;
  },
};

/** Start-up = spawn to "ready" (recovery included); the 10,000-document start is the baseline. */
async function measureStartup(
  context: BenchContext,
  result: SuiteResult,
  small: Sized,
  large: Sized,
  start: (sized: Sized) => Promise<ServerProcess>,
): Promise<void> {
  const timeStart = (sized: Sized) => async () => {
    const started = performance.now();
    const server = await start(sized);
    const elapsed = performance.now() - started;
    await server.stop();
    return elapsed;
  };
  result.comparisons.push(
    await alternate({
      id: 'large-startup',
      title: 'start-up (recovery of the data folder), 1,000,000 / 10,000 documents',
      baseline: { label: small.label, measure: timeStart(small) },
      candidate: { label: large.label, measure: timeStart(large) },
      unit: 'ms',
      rounds: 3,
      log: context.log,
    }),
  );
}

/** RSS as it comes after start-up, and the live heap after a full collection. */
async function measureMemory(result: SuiteResult, [small, large]: ServerProcess[]): Promise<void> {
  for (const [server, count] of [
    [small, SMALL],
    [large, LARGE],
  ] as const) {
    const rss = server.rssMb() ?? NaN;
    // A full collection of a 1 GB heap on a loaded machine takes seconds: wait for it.
    const heap = await server.ask<HeapMessage>({ type: 'heap', collect: true } satisfies HeapRequest, 'heap', 60_000);
    result.figures.push({
      id: `large-rss-${count}`,
      title: `server RSS after recovering ${count.toLocaleString('en')} documents`,
      value: round(rss, 1),
      unit: 'MB',
      detail:
        `live heap after a full collection ${heap ? heap.usedHeapMb.toFixed(1) : '?'} MB, RSS after ` +
        `it ${(server.rssMb() ?? NaN).toFixed(1)} MB`,
    });
  }
}

async function measureLookupsAndAllocation(
  context: BenchContext,
  result: SuiteResult,
  servers: ServerProcess[],
): Promise<void> {
  const clients = await Promise.all(servers.map((server) => MongoClient.connect(server.mongoUrl!, { maxPoolSize: 1 })));
  try {
    const [small, large] = clients.map((client) => client.db(LARGE_DB).collection(LARGE_COLLECTION));
    if (selected(context, 'large-findone')) await measureFindOne(context, result, servers, small, large);
    if (selected(context, 'large-allocation')) await measureAllocation(result, servers, clients, [small, large]);
  } finally {
    await Promise.all(clients.map((client) => client.close()));
  }
}

/** An indexed equality `findOne` (one document per `n`), same values at both sizes; with server CPU per call. */
async function measureFindOne(
  context: BenchContext,
  result: SuiteResult,
  servers: ServerProcess[],
  small: Collection,
  large: Collection,
): Promise<void> {
  const cpuPerCall: number[][] = [[], []];
  const lookup = (collection: Collection, side: number) => {
    let i = 0;
    const call = async () => {
      // A stride through the first 10,000 values, so both sizes look up the same keys.
      const n = (i++ * 7919) % SMALL;
      const found = await collection.findOne({ n });
      if (found?.n !== n) throw new Error(`document n=${n} not found`);
    };
    return async () => {
      const cpuBefore = servers[side].cpuMs() ?? NaN;
      const callsBefore = i;
      const ms = await measureCallTime(call, context.duration);
      cpuPerCall[side].push((((servers[side].cpuMs() ?? NaN) - cpuBefore) * 1000) / (i - callsBefore));
      return ms;
    };
  };
  const [smallLookup, largeLookup] = [lookup(small, 0), lookup(large, 1)];
  await measureCallTime(() => small.findOne({ n: 1 }), context.warmup);
  await measureCallTime(() => large.findOne({ n: 1 }), context.warmup);
  result.comparisons.push(
    await alternate({
      id: 'large-findone-indexed',
      title: 'findOne by an indexed field: time at 1,000,000 / at 10,000 documents',
      baseline: { label: '10,000 documents', measure: smallLookup },
      candidate: { label: '1,000,000 documents', measure: largeLookup },
      unit: 'ms/call',
      rounds: context.rounds,
      target: { op: '<=', value: 1.5 },
      log: context.log,
    }),
  );
  const [smallCpu, largeCpu] = cpuPerCall.map(median);
  result.figures.push({
    id: 'large-findone-cpu',
    title: 'server CPU per indexed findOne, 1,000,000 / 10,000 documents',
    value: round(largeCpu / smallCpu, 3),
    unit: 'x',
    detail: `${largeCpu.toFixed(0)} µs vs ${smallCpu.toFixed(0)} µs (medians of the rounds, /proc/<pid>/stat)`,
  });
}

/**
 * Bytes the server allocates per call, counted in the server process (see allocation-window.ts):
 * the driver's `ping` (the floor every command pays: socket read, BSON, reply), `find().limit(10)`,
 * and `find()` with its default first batch of 101 closed after that batch (which used to gather
 * the whole collection before answering).
 */
async function measureAllocation(
  result: SuiteResult,
  servers: ServerProcess[],
  clients: MongoClient[],
  collections: Collection[],
): Promise<void> {
  const perSize = [];
  for (let side = 0; side < 2; side++) {
    const collection = collections[side];
    const db = clients[side].db(LARGE_DB);
    const ping = await allocationPerCall(servers[side], () => db.command({ ping: 1 }));
    const limited = await allocationPerCall(servers[side], async () => {
      if ((await collection.find({}).limit(10).toArray()).length !== 10) throw new Error('expected 10 documents');
    });
    const firstBatch = await allocationPerCall(servers[side], async () => {
      const cursor = collection.find({});
      await cursor.next();
      await cursor.close();
    });
    perSize.push({ ping, limited, firstBatch });
  }
  const [small, large] = perSize;
  const kb = (bytes: number) => (bytes / 1024).toFixed(1);
  const target = { op: '<=' as const, value: 1.1 };
  const ratio = large.limited.total / small.limited.total;
  result.figures.push({
    id: 'large-allocation-find-limit-10',
    title: 'memory the server allocates per find().limit(10), 1,000,000 / 10,000 documents',
    value: round(ratio, 3),
    unit: 'x',
    target,
    met: meets(target, ratio),
    detail:
      `${kb(large.limited.total)} KB vs ${kb(small.limited.total)} KB per call (V8 heap + buffers); ` +
      `above the ping floor (${kb(large.ping.total)} / ${kb(small.ping.total)} ` +
      `KB): ${kb(large.limited.total - large.ping.total)} / ${kb(small.limited.total - small.ping.total)} KB`,
  });
  result.figures.push({
    id: 'large-allocation-first-batch',
    title:
      'memory the server allocates per find() first batch (101 documents) + killCursors, 1,000,000 / 10,000 documents',
    value: round(large.firstBatch.total / small.firstBatch.total, 3),
    unit: 'x',
    detail: `${kb(large.firstBatch.total)} KB vs ${kb(small.firstBatch.total)} KB per call`,
  });
  result.notes.push(
    `allocation: ${CLEAN_WINDOWS} windows of ${WINDOW_CALLS} sequential calls per figure, each opened after a full ` +
      `collection in the server ` +
      'and kept only when no collection ran inside it, so the growth of the V8 heap (plus ArrayBuffer memory) is ' +
      'what the calls allocated; medians per call',
  );
}

async function allocationPerCall(
  server: ServerProcess,
  call: () => Promise<unknown>,
): Promise<{ heap: number; buffers: number; total: number }> {
  for (let i = 0; i < 10; i++) await call();
  const heaps: number[] = [];
  const buffers: number[] = [];
  let calls = WINDOW_CALLS;
  for (let attempt = 0; heaps.length < CLEAN_WINDOWS && attempt < CLEAN_WINDOWS * 4; attempt++) {
    await server.ask<AllocationMessage>({ type: 'allocation', phase: 'open' }, 'allocation', 10_000);
    for (let i = 0; i < calls; i++) await call();
    const closed = await server.ask<AllocationMessage>({ type: 'allocation', phase: 'close' }, 'allocation', 10_000);
    if (!closed || closed.collections !== 0) {
      calls = Math.max(5, Math.floor(calls / 2));
      continue;
    }
    heaps.push(closed.heapBytes! / calls);
    buffers.push(closed.arrayBufferBytes! / calls);
  }
  if (heaps.length === 0) throw new Error(`${server.label}: every allocation window was cut by a garbage collection`);
  const heap = median(heaps);
  const buffer = median(buffers);
  return { heap, buffers: buffer, total: heap + Math.max(buffer, 0) };
}
