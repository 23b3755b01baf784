import { spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { threadId } from 'node:worker_threads';
import { MongoClient } from 'mongodb';
import { startEmbeddedMongo } from '../../../src/embedded-mongo';

jest.setTimeout(60_000);

const ROOT = path.resolve(__dirname, '../../..');

/** Inserts 1 MB documents until the server stops answering (bounded: 2,000 inserts). */
async function fillUntilGone(url: string): Promise<number> {
  const client = new MongoClient(url, { serverSelectionTimeoutMS: 2000, retryWrites: false });
  const big = 'x'.repeat(1024 * 1024);
  let inserted = 0;
  try {
    for (; inserted < 2000; inserted++) await client.db('fill').collection('big').insertOne({ big, n: inserted });
  } catch {
    // the server is gone
  } finally {
    await client.close().catch(() => undefined);
  }
  return inserted;
}

describe('embedded mongo: hosted in a worker thread', () => {
  const cleanups: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  test('log records of the worker reach the host logger, in the host thread', async () => {
    const records: Array<{ level: string; message: string; meta?: Record<string, unknown>; thread: number }> = [];
    const record = (level: string) => (message: string, meta?: Record<string, unknown>) =>
      records.push({ level, message, meta, thread: threadId });
    const server = await startEmbeddedMongo({
      logger: { info: record('info'), warn: record('warn'), error: record('error') },
    });
    await server.stop();
    expect(records).toContainEqual({
      level: 'info',
      message: 'embedded mongo listening',
      meta: { url: server.url, dataDir: ':memory:' },
      thread: threadId,
    });
  });

  (existsSync('/proc/self/task') ? test : test.skip)(
    'on Linux the database thread runs at nice +5 and the host thread keeps its own',
    async () => {
      /** Nice value of each thread of this process (field 19 of its stat). */
      const niceByThread = (): Map<number, number> =>
        new Map(
          readdirSync('/proc/self/task').flatMap((tid) => {
            try {
              const text = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
              return [[Number(tid), Number(text.slice(text.lastIndexOf(')') + 2).split(' ')[16])] as [number, number]];
            } catch {
              return []; // the thread ended meanwhile
            }
          }),
        );
      const before = niceByThread();
      const server = await startEmbeddedMongo();
      try {
        const added = [...niceByThread()].filter(([tid]) => !before.has(tid)).map(([, nice]) => nice);
        expect(added).toContain(5);
        expect(niceByThread().get(process.pid)).toBe(before.get(process.pid));
      } finally {
        await server.stop();
      }
    },
  );

  test('a start that fails (busy port) rejects with the reason and leaves the dataDir unlocked', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'embedded-busy-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const busy: Server = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => busy.close(resolve)));
    const port = (busy.address() as { port: number }).port;

    await expect(startEmbeddedMongo({ port, dataDir })).rejects.toThrow(
      `EADDRINUSE: address already in use 127.0.0.1:${port}`,
    );
    expect(await readdir(dataDir)).not.toContain('mongod.lock');
    const next = await startEmbeddedMongo({ dataDir }); // no "in use by another server"
    await next.stop();
  });

  test('a worker that dies while serving (out of memory) is reported to onCrash; the host lives on', async () => {
    const crashes: Error[] = [];
    const server = await startEmbeddedMongo({ maxHeapMb: 32, onCrash: (error) => crashes.push(error) });
    const inserted = await fillUntilGone(server.url);
    for (let waited = 0; crashes.length === 0 && waited < 10_000; waited += 20)
      await new Promise((r) => setTimeout(r, 20));
    expect(inserted).toBeLessThan(2000);
    expect(crashes).toHaveLength(1);
    expect(crashes[0].message).toMatch(/out of memory|heap/i);
    await server.stop(); // already gone: resolves
  });

  test('by default a crash ends the host process with one line on stderr and exit code 1', () => {
    const script = `
      const { startEmbeddedMongo } = require('./src/embedded-mongo');
      const { MongoClient } = require('mongodb');
      (async () => {
        const server = await startEmbeddedMongo({ maxHeapMb: 32 });
        const client = new MongoClient(server.url, { serverSelectionTimeoutMS: 2000, retryWrites: false });
        const big = 'x'.repeat(1024 * 1024);
        for (let i = 0; i < 2000; i++) await client.db('fill').collection('big').insertOne({ big }).catch(() => undefined);
        console.log('still running after 2000 inserts');
      })();`;
    const run = spawnSync(process.execPath, ['-r', '@swc-node/register', '-e', script], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 50_000,
    });
    expect(run.status).toBe(1);
    expect(run.stdout).not.toContain('still running');
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^\[embedded-mongo\] the embedded database stopped unexpectedly \(.*(memory|heap).*\); exiting$/i,
    );
  });
});
