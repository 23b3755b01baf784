import { alternate } from '../lib/alternate';
import { emptyResult, selected, type BenchContext, type Suite } from '../lib/bench-context';
import { CpuPerRequest } from '../lib/cpu-per-request';
import { measureThroughput } from '../lib/http-load';
import { messageRequest, REQUEST_KINDS, REQUEST_TITLES } from '../lib/message-requests';
import { startServer, type ServerProcess } from '../lib/server-process';
import { round } from '../lib/stats';

/**
 * Benchmark 2: the same framework server on the default store (DatabaseService on the embedded
 * server, hosted in the server child) as a ratio to the memory store. No target: it shows what
 * the database round trip costs over HTTP.
 */
export const storeSuite: Suite = {
  name: 'store',
  title: 'HTTP on the default store: DatabaseService (embedded server) vs MemoryService',
  async run(context: BenchContext) {
    const result = emptyResult(this, context);
    for (const kind of REQUEST_KINDS) {
      if (!selected(context, `store-${kind}`)) continue;
      const start = (store: 'memory' | 'mongo') =>
        startServer({
          label: `framework-${store}-${kind}`, script: context.scripts['framework-server'], settings: { store, auth: false, secret: context.secret },
          pinning: context.pinning, profileDir: context.profileDir,
        });
      const memory = await start('memory');
      const mongo = await start('mongo');
      try {
        const cpu = new CpuPerRequest();
        const load = (server: ServerProcess, seconds: number) =>
          cpu.measure(server, [messageRequest(kind, server.sampleId)], { connections: context.connections, duration: seconds });
        for (const server of [memory, mongo]) {
          await measureThroughput(server.url, [messageRequest(kind, server.sampleId)], { connections: context.connections, duration: context.warmup });
        }
        memory.startProfiling();
        mongo.startProfiling();
        const comparison = await alternate({
          id: `store-${kind}`,
          title: `${REQUEST_TITLES[kind]}: database store / memory store`,
          baseline: { label: 'MemoryService', measure: () => load(memory, context.duration) },
          candidate: { label: 'DatabaseService (embedded)', measure: () => load(mongo, context.duration) },
          unit: 'req/s',
          rounds: context.rounds,
          log: context.log,
        });
        result.comparisons.push(comparison);
        const efficiency = cpu.comparison(comparison, memory, mongo);
        if (efficiency) result.comparisons.push(efficiency);
        result.figures.push({ id: `rss-after-store-${kind}`, title: `RSS after the ${kind} runs, framework on the database store`, value: round(mongo.rssMb() ?? NaN, 1), unit: 'MB' });
      } finally {
        await Promise.all([memory.stop(), mongo.stop()]);
      }
    }
    return result;
  },
};
