/**
 * The embedded server of two trees, side by side in the same run: each tree's
 * `src/embedded-mongo` is started in a child process (a worker thread there, as applications host
 * it; with and without a data folder), and this process drives both through the driver with the
 * same sequential calls, alternating A B, B A, ... per round. Prints calls per second per tree
 * (median of the rounds) and the ratio B / A per workload: a change to the server (a new feature
 * on the write path, say) shows here before the suites' own runs, which measure one tree only.
 * On a shared machine the calls per second follow what the other processes leave; the CPU time
 * per call does much less, so each line also gives the server's (its child process, from
 * /proc, 10 ms ticks) and the driver's (this process) CPU µs per call, and their ratios A / B.
 *
 *   git archive <commit> src | tar -x -C /tmp/before && ln -s "$PWD/node_modules" /tmp/before/
 *   node -r @swc-node/register bench/tools/embedded-before-after.ts /tmp/before . [--rounds 5] [--seconds 2] \
 *     [--standalone] [--client-options retryWrites=false]
 *
 * `--client-options` adds connection-string options to both URLs: with `retryWrites=false` the
 * driver sends no transaction number with each write, which shows what that part of a replica
 * set's round trip costs on the driver's side.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MongoClient, ObjectId, type Collection } from 'mongodb';
import { readCpuMs } from '../lib/server-process';
import { median } from '../lib/stats';

const SEEDED = 10_000;

interface Server {
  readonly child: ChildProcess;
  readonly url: string;
}

/** A child hosting one tree's embedded server; resolves with its URL. */
function startServer(tree: string, dataDir: string | undefined, standalone: boolean): Promise<Server> {
  const entry =
    `const { startEmbeddedMongo } = require(${JSON.stringify(path.join(tree, 'src/embedded-mongo'))});
startEmbeddedMongo({ host: '127.0.0.1', port: 0, dataDir: ${JSON.stringify(dataDir ?? null)} || undefined, ` +
    `standalone: ${standalone} })
  .then((mongo) => { console.log('URL ' + mongo.url); process.on('SIGTERM', () => mongo.stop().then(() => ` +
    `process.exit(0))); });`;
  const child = spawn(process.execPath, ['-r', '@swc-node/register', '-e', entry], {
    stdio: ['ignore', 'pipe', 'inherit'],
    cwd: path.resolve(__dirname, '../..'),
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${tree}: no URL within 60 s`)), 60_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      const match = /URL (\S+)/.exec(chunk.toString());
      if (match) {
        clearTimeout(timer);
        resolve({ child, url: match[1] });
      }
    });
    child.once('exit', (code) => reject(new Error(`${tree}: exited with ${code}`)));
  });
}

function stopped(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve();
    }, 10_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

type Workload = [name: string, call: (collection: Collection, ids: ObjectId[], i: number) => Promise<unknown>];

const WORKLOADS: Workload[] = [
  ['insertOne', (collection, _ids, i) => collection.insertOne({ n: SEEDED + i, text: 'a benchmark document' })],
  ['findOne by _id', (collection, ids, i) => collection.findOne({ _id: ids[i % ids.length] })],
  [
    'updateOne $inc by _id',
    (collection, ids, i) => collection.updateOne({ _id: ids[i % ids.length] }, { $inc: { likes: 1 } }),
  ],
  ['find limit 10', (collection) => collection.find({}).limit(10).toArray()],
];

interface Window {
  readonly perSecond: number;
  /** CPU µs per call of the server's process and of this one (the driver). */
  readonly serverCpu: number;
  readonly driverCpu: number;
}

/** Sequential calls for `seconds`. */
async function measure(
  server: Server,
  collection: Collection,
  ids: ObjectId[],
  call: Workload[1],
  seconds: number,
): Promise<Window> {
  const serverBefore = readCpuMs(server.child.pid!) ?? NaN;
  const driverBefore = process.cpuUsage();
  const deadline = performance.now() + seconds * 1000;
  let calls = 0;
  while (performance.now() < deadline) await call(collection, ids, calls++);
  const driver = process.cpuUsage(driverBefore);
  const serverMs = (readCpuMs(server.child.pid!) ?? NaN) - serverBefore;
  return {
    perSecond: calls / seconds,
    serverCpu: (serverMs * 1000) / calls,
    driverCpu: (driver.user + driver.system) / calls,
  };
}

/** Median of B / A (or A / B with `inverse`: for costs) per round, with its extremes. */
function ratioOf(windows: Window[][], value: (window: Window) => number, inverse = false): string {
  const ratios = windows[0].map((a, i) =>
    inverse ? value(a) / value(windows[1][i]) : value(windows[1][i]) / value(a),
  );
  return `${median(ratios).toFixed(3)} [${Math.min(...ratios).toFixed(3)} - ${Math.max(...ratios).toFixed(3)}]`;
}

async function seeded(
  url: string,
  clientOptions: string | undefined,
): Promise<{ client: MongoClient; collection: Collection; ids: ObjectId[] }> {
  const client = await MongoClient.connect(
    clientOptions ? `${url}${url.includes('?') ? '&' : '?'}${clientOptions}` : url,
    { serverSelectionTimeoutMS: 5000 },
  );
  const collection = client.db('bench').collection('before_after');
  const ids = Array.from({ length: SEEDED }, () => new ObjectId());
  await collection.insertMany(ids.map((_id, n) => ({ _id, n, text: 'a benchmark document', likes: 0 })));
  return { client, collection, ids };
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const option = (name: string, fallback: number) =>
    args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback;
  const rounds = option('--rounds', 5);
  // A tree that knows the option reports a standalone (no replica set, no change-stream history); older trees ignore
  // it.
  const standalone = args.includes('--standalone');
  const seconds = option('--seconds', 2);
  const clientOptions = args.includes('--client-options') ? args[args.indexOf('--client-options') + 1] : undefined;
  const trees = args
    .filter((arg, i) => !arg.startsWith('--') && !['--rounds', '--seconds', '--client-options'].includes(args[i - 1]))
    .map((tree) => path.resolve(tree));
  if (trees.length !== 2 || !(rounds >= 1) || !(seconds > 0))
    throw new Error(
      'usage: embedded-before-after.ts <tree A> <tree B> [--rounds N] [--seconds S] [--standalone] [--client-options ' +
        'QUERY]',
    );
  for (const durable of [false, true]) {
    const folders = trees.map(() => (durable ? mkdtempSync(path.join(os.tmpdir(), 'before-after-')) : undefined));
    const servers: Server[] = [];
    const sides: Awaited<ReturnType<typeof seeded>>[] = [];
    try {
      for (const [i, tree] of trees.entries()) servers.push(await startServer(tree, folders[i], standalone));
      for (const server of servers) sides.push(await seeded(server.url, clientOptions));
      for (const [name, call] of WORKLOADS) {
        const windows: Window[][] = [[], []];
        for (let round = 0; round < rounds; round++) {
          for (const side of round % 2 === 0 ? [0, 1] : [1, 0])
            windows[side].push(await measure(servers[side], sides[side].collection, sides[side].ids, call, seconds));
        }
        const at = (side: number, value: (window: Window) => number, digits: number): string =>
          median(windows[side].map(value)).toFixed(digits);
        console.log(
          `${durable ? 'data folder' : 'in memory  '} ${name.padEnd(22)} ` +
            `A ${at(0, (w) => w.perSecond, 0).padStart(6)}/s  B ${at(1, (w) => w.perSecond, 0).padStart(6)}/s  ` +
            `B/A ${ratioOf(windows, (w) => w.perSecond)}` +
            ` | server CPU µs/call A ${at(0, (w) => w.serverCpu, 1)} B ${at(1, (w) => w.serverCpu, 1)} ` +
            `A/B ${ratioOf(windows, (w) => w.serverCpu, true)}` +
            ` | driver CPU µs/call A ${at(0, (w) => w.driverCpu, 1)} B ${at(1, (w) => w.driverCpu, 1)} ` +
            `A/B ${ratioOf(windows, (w) => w.driverCpu, true)}`,
        );
      }
    } finally {
      for (const side of sides) await side.client.close();
      // A server writes its last snapshot as it stops: its folder goes once it has exited (or after 10 s).
      await Promise.all(servers.map((server) => stopped(server.child)));
      for (const folder of folders) if (folder) rmSync(folder, { recursive: true, force: true });
    }
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
