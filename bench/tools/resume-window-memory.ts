/**
 * The memory the events-resume window holds (issue 27): records events in a ResumeWindow as the
 * socket transport does (one kept event per send, shared by the connections it went to) and
 * reports the retained heap per 1,000 events, for one connection per event (a user's own view)
 * and for events shared by 100 connections (a channel's view); then, with `REDIS_URL`'s window,
 * the Redis memory of the shared stream per 1,000 events. Run with `--expose-gc`:
 *
 *   node --expose-gc -r @swc-node/register bench/tools/resume-window-memory.ts
 */
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';
import { RedisEventLog } from '../../src/adapters/redis/redis-event-log';
import { ResumeWindow } from '../../src/adapters/socketio/resume-window';

const EVENTS = 20_000;
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');

function retainedBytes(fill: (window: ResumeWindow) => void): number {
  gc!();
  const before = process.memoryUsage().heapUsed;
  const window = new ResumeWindow({ windowMs: 120_000, maxEventsPerConnection: 1_000_000, maxBytes: 1024 ** 3 });
  fill(window);
  gc!();
  const after = process.memoryUsage().heapUsed;
  if (window.size().events === 0) throw new Error('nothing kept');
  return after - before;
}

/** A message event as the fan-out bench sends it (text of about 100 characters). */
function message(n: number): Record<string, unknown> {
  return { id: n, text: `event ${n} ${'x'.repeat(80)}`, userId: n % 10 };
}

for (const [label, connections] of [
  ['one connection per event', 1],
  ['100 connections per event', 100],
] as const) {
  const pids = Array.from({ length: connections }, (_, index) => `socket-${index}`);
  const bytes = retainedBytes((window) => {
    for (let n = 0; n < EVENTS; n += 1) {
      const data = message(n);
      window.record(
        ['messages created', data, window.nextOffset()],
        connections === 1 ? [pids[n % pids.length]] : pids,
        JSON.stringify(data).length,
      );
    }
  });
  console.log(
    `${label}: ${(((bytes / EVENTS) * 1000) / 1024).toFixed(0)} KiB retained per 1,000 events ` +
      `(${(bytes / 1024 / 1024).toFixed(1)} MiB for ${EVENTS.toLocaleString('en')})`,
  );
}

/**
 * With REDIS_URL the window is the shared Redis Stream: the same events appended through the
 * event log to a throwaway redis-server (when installed), and the stream's own memory as Redis
 * reports it (MEMORY USAGE, all entries sampled).
 */
async function streamMemory(): Promise<void> {
  if (spawnSync('redis-server', ['--version']).status !== 0)
    return console.log('redis stream: skipped (redis-server is not installed)');
  const port = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address() as { port: number };
      probe.close(() => resolve(free));
    });
  });
  const redis = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
  const log = new RedisEventLog({ url: `redis://127.0.0.1:${port}`, logger: silent, keepMs: 240_000 });
  try {
    let delivered = 0;
    log.subscribe(() => (delivered += 1));
    await log.start();
    for (let n = 0; n < EVENTS; n += 1) {
      log.append({
        event: 'created',
        path: 'messages',
        data: message(n),
        routing: { origin: 'bench', service: 'messages', method: 'create' },
      });
    }
    const deadline = Date.now() + 30_000;
    while (delivered < EVENTS && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    const client = new Redis(`redis://127.0.0.1:${port}`);
    const bytes = Number(await client.call('MEMORY', 'USAGE', 'hexa-services:events', 'SAMPLES', '0'));
    await client.quit();
    console.log(
      `redis stream (REDIS_URL), each event once for every ` +
        `connection: ${(((bytes / EVENTS) * 1000) / 1024).toFixed(0)} KiB of Redis memory per 1,000 events ` +
        `(${delivered.toLocaleString('en')} read back)`,
    );
  } finally {
    await log.close();
    redis.kill('SIGKILL');
  }
}

void streamMemory();
