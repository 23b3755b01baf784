import { MongoClient } from 'mongodb';
import { DatabaseService } from '../../src/adapters/mongo';
import { alternate } from '../lib/alternate';
import { emptyResult, type BenchContext, type Suite } from '../lib/bench-context';
import { measureCallTime } from '../lib/call-loop';
import { cycle, seedDocuments } from '../lib/seed-documents';
import { startServer } from '../lib/server-process';
import { round } from '../lib/stats';

const SMALL = 10_000;
const LARGE = 100_000;
const RECORD_COUNTS = [10, 100, 1_000];

/**
 * Benchmark 5: how `find` scales. (a) A paginated `find` with `$limit=10` on an indexed filter
 * (100 matches at both sizes) at 10,000 and 100,000 documents: the time ratio should stay near 1.
 * (b) Pages of 10, 100 and 1,000 records: time per call and the marginal cost per record,
 * through DatabaseService and through the driver alone.
 */
export const scaleSuite: Suite = {
  name: 'scale',
  title: 'Scale: collection size and records per find (embedded server)',
  async run(context: BenchContext) {
    const result = emptyResult(this, context);
    const mongo = await startServer({
      label: 'embedded-mongo-scale',
      script: context.scripts['mongo-server'],
      pinning: context.pinning,
      profileDir: context.profileDir,
    });
    const client = await MongoClient.connect(mongo.mongoUrl!, { maxPoolSize: 10 });
    try {
      const db = client.db('bench');
      const seedStarted = performance.now();
      const small = await seedDocuments(db, 'scale_small', SMALL);
      const large = await seedDocuments(db, 'scale_large', LARGE);
      result.notes.push(
        `seeded ${(SMALL + LARGE).toLocaleString('en')} documents ` +
          `in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`,
      );
      const seconds = context.duration / 2;

      const paginate = { default: 10, max: 1_000 };
      const smallService = new DatabaseService({ Model: small.collection, paginate });
      const largeService = new DatabaseService({ Model: large.collection, paginate });
      // Buckets 0..99 exist at both sizes, each with 100 documents.
      const buckets = Array.from({ length: SMALL / 100 }, (_, b) => b);
      const findPage = (service: DatabaseService, next: () => number) => () =>
        service.find({ query: { bucket: next(), $limit: 10 } });
      const smallFind = findPage(smallService, cycle(buckets));
      const largeFind = findPage(largeService, cycle(buckets));
      await measureCallTime(smallFind, context.warmup);
      await measureCallTime(largeFind, context.warmup);
      mongo.startProfiling();
      result.comparisons.push(
        await alternate({
          id: 'scale-find-100k-vs-10k',
          title: 'paginated find $limit=10 (indexed): time at 100,000 / at 10,000 documents',
          baseline: { label: '10,000 documents', measure: () => measureCallTime(smallFind, seconds) },
          candidate: { label: '100,000 documents', measure: () => measureCallTime(largeFind, seconds) },
          unit: 'ms/call',
          rounds: context.rounds,
          target: { op: '<=', value: 1.5 },
          log: context.log,
        }),
      );

      // Diagnostics: the driver calls the paginated find is made of, at both sizes, to show which one grows.
      const driverCalls = {
        'driver find(filter).limit(10)': (collection: typeof small.collection, bucket: number) =>
          collection.find({ bucket }).limit(10).toArray(),
        'driver countDocuments(filter)': (collection: typeof small.collection, bucket: number) =>
          collection.countDocuments({ bucket }),
        'driver aggregate($match, $limit)': (collection: typeof small.collection, bucket: number) =>
          collection.aggregate([{ $match: { bucket } }, { $limit: 10 }]).toArray(),
      };
      for (const [name, call] of Object.entries(driverCalls)) {
        const [nextSmall, nextLarge] = [cycle(buckets), cycle(buckets)];
        result.comparisons.push(
          await alternate({
            id: `scale-diagnostic-${name.split(' ')[1].replace(/\(.*$/, '')}`,
            title: `diagnostic: ${name}, time at 100,000 / at 10,000`,
            baseline: {
              label: '10,000 documents',
              measure: () => measureCallTime(() => call(small.collection, nextSmall()), seconds / 2),
            },
            candidate: {
              label: '100,000 documents',
              measure: () => measureCallTime(() => call(large.collection, nextLarge()), seconds / 2),
            },
            unit: 'ms/call',
            rounds: context.rounds,
            log: context.log,
          }),
        );
      }

      const plainService = new DatabaseService({ Model: small.collection });
      const filter = { bucket: { $lt: 20 } };
      const times: Record<string, number> = {};
      for (const count of RECORD_COUNTS) {
        const driverFind = () => small.collection.find(filter).limit(count).toArray();
        const serviceFind = () => plainService.find({ query: { ...filter, $limit: count } });
        await measureCallTime(serviceFind, context.warmup / 2);
        const comparison = await alternate({
          id: `scale-records-${count}`,
          title: `find returning ${count.toLocaleString('en')} records: DatabaseService / driver time`,
          baseline: { label: 'driver', measure: () => measureCallTime(driverFind, seconds) },
          candidate: { label: 'DatabaseService', measure: () => measureCallTime(serviceFind, seconds) },
          unit: 'ms/call',
          rounds: context.rounds,
          log: context.log,
        });
        result.comparisons.push(comparison);
        times[`service-${count}`] = comparison.candidateValue.median;
        times[`driver-${count}`] = comparison.baselineValue.median;
      }
      const [first, last] = [RECORD_COUNTS[0], RECORD_COUNTS[RECORD_COUNTS.length - 1]];
      for (const side of ['service', 'driver']) {
        const perRecordUs = ((times[`${side}-${last}`] - times[`${side}-${first}`]) / (last - first)) * 1000;
        result.figures.push({
          id: `scale-cost-per-record-${side}`,
          title:
            `marginal cost per record, ${side === 'service' ? 'DatabaseService' : 'driver'} (${first} ` +
            `-> ${last} records)`,
          value: round(perRecordUs, 2),
          unit: 'µs/record',
          detail: RECORD_COUNTS.map((count) => `${count}: ${round(times[`${side}-${count}`], 3)} ms`).join(', '),
        });
      }
    } finally {
      await client.close();
      await mongo.stop();
    }
    return result;
  },
};
