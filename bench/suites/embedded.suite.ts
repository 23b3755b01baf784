import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { alternate } from '../lib/alternate';
import { emptyResult, selected, type BenchContext, type Suite } from '../lib/bench-context';
import { measureCallRate, measureCallTime } from '../lib/call-loop';
import type { SuiteResult } from '../lib/results';
import { cycle, seedDocuments } from '../lib/seed-documents';
import { startServer } from '../lib/server-process';
import { MONGO_DATA_DIR_ENV } from '../servers/server-protocol';

const SMALL = 10_000;
const LARGE = 100_000;
const WRITERS = 20;

/**
 * Benchmark 7: the embedded server's own figures, through the real driver against the server in
 * a child process. (a) `findOne` by `_id` and by an indexed field at 100,000 documents against
 * the `ping` round trip (the floor any command pays); (b) an indexed equality find at 100,000 vs
 * 10,000 documents; (c) acknowledged inserts with a dataDir (journal fsynced before the reply,
 * group commit) against the same server without one, from one writer and from 20.
 */
export const embeddedSuite: Suite = {
  name: 'embedded',
  title: 'Embedded server: lookups, scale and durable writes (driver, server in a child)',
  async run(context: BenchContext) {
    const result = emptyResult(this, context);
    await measureLookups(context, result);
    await measureDurableInserts(context, result);
    return result;
  },
};

async function measureLookups(context: BenchContext, result: SuiteResult): Promise<void> {
  const ids = ['embedded-findone-id', 'embedded-findone-indexed', 'embedded-find-100k-vs-10k'];
  if (!ids.some((id) => selected(context, id))) return;
  const mongo = await startServer({
    label: 'embedded-mongo-lookups',
    script: context.scripts['mongo-server'],
    pinning: context.pinning,
    profileDir: context.profileDir,
  });
  const client = await MongoClient.connect(mongo.mongoUrl!, { maxPoolSize: 10 });
  try {
    const db = client.db('bench');
    const seedStarted = performance.now();
    const small = await seedDocuments(db, 'embedded_small', SMALL);
    const large = await seedDocuments(db, 'embedded_large', LARGE);
    // `n` is unique per document: an equality on it selects one document through its index.
    await large.collection.createIndex({ n: 1 });
    result.notes.push(
      `seeded ${(SMALL + LARGE).toLocaleString('en')} documents and built the indexes ` +
        `in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`,
    );

    // Calls per second, so that candidate / baseline = ping time / findOne time.
    const rate = (call: () => Promise<unknown>, seconds: number) => measureCallRate(call, { seconds, concurrency: 1 });
    const ping = () => db.command({ ping: 1 });
    const found = (document: unknown) => {
      if (!document) throw new Error('seeded document not found');
    };
    const nextId = cycle(large.ids);
    const nextN = cycle(Array.from({ length: LARGE }, (_, n) => n));
    const lookups = [
      {
        id: 'embedded-findone-id',
        label: 'findOne by _id',
        call: async () => found(await large.collection.findOne({ _id: nextId() })),
      },
      {
        id: 'embedded-findone-indexed',
        label: 'findOne by an indexed field',
        call: async () => found(await large.collection.findOne({ n: nextN() })),
      },
    ];
    await rate(ping, context.warmup);
    for (const lookup of lookups.filter(({ id }) => selected(context, id))) {
      await rate(lookup.call, context.warmup);
      mongo.startProfiling();
      result.comparisons.push(
        await alternate({
          id: lookup.id,
          title: `${lookup.label}, ${LARGE.toLocaleString('en')} documents: ping time / findOne time`,
          baseline: { label: 'driver ping', measure: () => rate(ping, context.duration) },
          candidate: { label: lookup.label, measure: () => rate(lookup.call, context.duration) },
          unit: 'calls/s',
          rounds: context.rounds,
          target: { op: '>=', value: 0.6 },
          log: context.log,
        }),
      );
    }

    // All 100 matches of one bucket, no limit: an index lookup costs the same at both sizes, a scan 10x.
    if (selected(context, 'embedded-find-100k-vs-10k')) {
      const buckets = Array.from({ length: SMALL / 100 }, (_, b) => b);
      const findAll = (collection: typeof small.collection, next: () => number) => async () => {
        const documents = await collection.find({ bucket: next() }).toArray();
        if (documents.length !== 100) throw new Error(`expected 100 documents, got ${documents.length}`);
      };
      const smallFind = findAll(small.collection, cycle(buckets));
      const largeFind = findAll(large.collection, cycle(buckets));
      await measureCallTime(smallFind, context.warmup);
      await measureCallTime(largeFind, context.warmup);
      result.comparisons.push(
        await alternate({
          id: 'embedded-find-100k-vs-10k',
          title: 'indexed equality find (all 100 matches): time at 100,000 / at 10,000 documents',
          baseline: { label: '10,000 documents', measure: () => measureCallTime(smallFind, context.duration) },
          candidate: { label: '100,000 documents', measure: () => measureCallTime(largeFind, context.duration) },
          unit: 'ms/call',
          rounds: context.rounds,
          target: { op: '<=', value: 1.5 },
          log: context.log,
        }),
      );
      result.notes.push(
        'the same through DatabaseService (paginated, $limit=10) is `scale-find-100k-vs-10k` in the scale suite',
      );
    }
  } finally {
    await client.close();
    await mongo.stop();
  }
}

async function measureDurableInserts(context: BenchContext, result: SuiteResult): Promise<void> {
  const concurrencies = [1, WRITERS].filter((c) => selected(context, insertId(c)));
  if (concurrencies.length === 0) return;
  // A fresh folder per run on the real disk (not tmpfs, or fsync would cost nothing), removed afterwards.
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-embedded-'));
  const servers = await Promise.all([
    startServer({
      label: 'embedded-mongo-memory',
      script: context.scripts['mongo-server'],
      pinning: context.pinning,
      profileDir: context.profileDir,
    }),
    startServer({
      label: 'embedded-mongo-journal',
      script: context.scripts['mongo-server'],
      env: { [MONGO_DATA_DIR_ENV]: dataDir },
      pinning: context.pinning,
      profileDir: context.profileDir,
    }),
  ]).catch((error: unknown) => {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  });
  // A pool as large as the writers, so that their inserts are in flight together and can share an fsync.
  const clients: MongoClient[] = [];
  try {
    for (const server of servers) clients.push(await MongoClient.connect(server.mongoUrl!, { maxPoolSize: WRITERS }));
    const [memory, journal] = clients.map((client) => {
      const collection = client.db('bench').collection('inserts');
      let n = 0;
      return async () => {
        n++;
        await collection.insertOne({ n, bucket: n % 1000, text: `Inserted document ${n}`, createdAt: Date.now() });
      };
    });
    result.notes.push(
      `durable inserts: dataDir is a fresh folder in ${os.tmpdir()}, deleted after the suite; default snapshot ` +
        `settings (every 60 s or 64 MiB of journal)`,
    );
    for (const concurrency of concurrencies) {
      const rate = (call: () => Promise<unknown>, seconds: number) => measureCallRate(call, { seconds, concurrency });
      await rate(memory, context.warmup);
      await rate(journal, context.warmup);
      for (const server of servers) server.startProfiling();
      result.comparisons.push(
        await alternate({
          id: insertId(concurrency),
          title:
            `acknowledged insertOne, ${concurrency === 1 ? 'one writer' : `${concurrency} concurrent writers`}: ` +
            `with a dataDir / without`,
          baseline: { label: 'no dataDir (memory)', measure: () => rate(memory, context.duration) },
          candidate: { label: 'dataDir (journal, fsync)', measure: () => rate(journal, context.duration) },
          unit: 'calls/s',
          rounds: context.rounds,
          target: concurrency === 1 ? undefined : { op: '>=', value: 0.5 },
          log: context.log,
        }),
      );
    }
  } finally {
    await Promise.all(clients.map((client) => client.close()));
    await Promise.all(servers.map((server) => server.stop()));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function insertId(concurrency: number): string {
  return concurrency === 1 ? 'embedded-insert-sequential' : `embedded-insert-concurrent-${concurrency}`;
}
