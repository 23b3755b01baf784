import { MongoClient } from 'mongodb';
import { DatabaseService } from '../../src/adapters/mongo';
import { alternate } from '../lib/alternate';
import { emptyResult, type BenchContext, type Suite } from '../lib/bench-context';
import { measureCallRate, measureCallTime } from '../lib/call-loop';
import { cycle, seedDocuments } from '../lib/seed-documents';
import { startServer } from '../lib/server-process';
import { round } from '../lib/stats';

const DOCUMENTS = 10_000;

/**
 * Benchmark 4: DatabaseService `get` and `find` against the same driver calls made directly
 * (`findOne({ _id })`, `find(filter).limit(10)`), sequentially, on the embedded server in a child
 * process. The service runs without pagination here, so both sides do the same database work.
 */
export const databaseSuite: Suite = {
  name: 'database',
  title: 'DatabaseService vs the raw driver (embedded server)',
  async run(context: BenchContext) {
    const result = emptyResult(this, context);
    const mongo = await startServer({
      label: 'embedded-mongo-database',
      script: context.scripts['mongo-server'],
      pinning: context.pinning,
      profileDir: context.profileDir,
    });
    const client = await MongoClient.connect(mongo.mongoUrl!, { maxPoolSize: 10 });
    try {
      const db = client.db('bench');
      const { collection, ids } = await seedDocuments(db, 'documents', DOCUMENTS);
      const service = new DatabaseService({ Model: collection });
      const buckets = Array.from({ length: DOCUMENTS / 100 }, (_, b) => b);
      const measure = (call: () => Promise<unknown>, seconds: number) =>
        measureCallRate(call, { seconds, concurrency: 1 });

      const pingMs = await measureCallTime(() => db.command({ ping: 1 }), context.duration / 2);
      result.figures.push({
        id: 'driver-ping',
        title: 'driver ping round trip',
        value: round(pingMs * 1000, 1),
        unit: 'µs/call',
      });

      const nextDriverId = cycle(ids);
      const nextServiceId = cycle(ids.map(String));
      const driverGet = async () => {
        const found = await collection.findOne({ _id: nextDriverId() });
        if (!found) throw new Error('seeded document not found');
      };
      const serviceGet = () => service.get(nextServiceId());
      const nextDriverBucket = cycle(buckets);
      const nextServiceBucket = cycle(buckets);
      const driverFind = () => collection.find({ bucket: nextDriverBucket() }).limit(10).toArray();
      const serviceFind = () => service.find({ query: { bucket: nextServiceBucket(), $limit: 10 } });
      // Diagnostic: the service's find is an aggregation; this shows what that costs by itself.
      const nextAggregateBucket = cycle(buckets);
      const driverAggregate = () =>
        collection.aggregate([{ $match: { bucket: nextAggregateBucket() } }, { $limit: 10 }]).toArray();
      mongo.startProfiling();

      for (const [kind, driverCall, serviceCall] of [
        ['get', driverGet, serviceGet],
        ['find', driverFind, serviceFind],
      ] as const) {
        await measure(driverCall, context.warmup);
        await measure(serviceCall, context.warmup);
        result.comparisons.push(
          await alternate({
            id: `database-${kind}`,
            title:
              kind === 'get' ? 'get by _id (findOne)' : `find 10 of ${DOCUMENTS.toLocaleString('en')} (indexed filter)`,
            baseline: { label: 'driver', measure: () => measure(driverCall, context.duration) },
            candidate: { label: 'DatabaseService', measure: () => measure(serviceCall, context.duration) },
            unit: 'calls/s',
            rounds: context.rounds,
            target: { op: '>=', value: 0.9 },
            log: context.log,
          }),
        );
      }
      result.comparisons.push(
        await alternate({
          id: 'database-find-aggregate',
          title: 'diagnostic: driver aggregate($match, $limit) / driver find().limit()',
          baseline: { label: 'driver find', measure: () => measure(driverFind, context.duration) },
          candidate: { label: 'driver aggregate', measure: () => measure(driverAggregate, context.duration) },
          unit: 'calls/s',
          rounds: context.rounds,
          log: context.log,
        }),
      );
    } finally {
      await client.close();
      await mongo.stop();
    }
    return result;
  },
};
