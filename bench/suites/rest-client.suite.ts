import { rest } from '../../src/client';
import { alternate } from '../lib/alternate';
import { emptyResult, type BenchContext, type Suite } from '../lib/bench-context';
import { measureCallRate } from '../lib/call-loop';
import { CpuPerRequest } from '../lib/cpu-per-request';
import { startServer } from '../lib/server-process';

/**
 * Benchmark 3: `get` through the REST client (`rest(url).fetch(fetch)`) against raw `fetch` of
 * the same URL with the same JSON decoding, both in this process, against one framework server.
 */
export const restClientSuite: Suite = {
  name: 'rest',
  title: 'REST client: rest(url).fetch(fetch) vs raw fetch',
  async run(context: BenchContext) {
    const result = emptyResult(this, context);
    const server = await startServer({
      label: 'framework-rest',
      script: context.scripts['framework-server'],
      settings: { store: 'memory', auth: false, secret: context.secret },
      pinning: context.pinning,
      profileDir: context.profileDir,
    });
    try {
      const messages = rest(server.url).fetch(fetch).service('messages');
      const url = `${server.url}/messages/${server.sampleId}`;
      const rawGet = async (): Promise<unknown> => {
        const response = await fetch(url, { headers: { accept: 'application/json' } });
        if (!response.ok) throw new Error(`GET ${url} answered ${response.status}`);
        return response.json();
      };
      const clientGet = (): Promise<unknown> => messages.get(server.sampleId);
      for (const concurrency of [1, 20]) {
        const cpu = new CpuPerRequest();
        const measure = (label: string, call: () => Promise<unknown>, seconds: number) =>
          cpu.measureCalls(label, call, { seconds, concurrency });
        await measureCallRate(rawGet, { seconds: context.warmup, concurrency });
        await measureCallRate(clientGet, { seconds: context.warmup, concurrency });
        if (concurrency === 1) server.startProfiling();
        const comparison = await alternate({
          id: concurrency === 1 ? 'rest-get-sequential' : `rest-get-concurrent-${concurrency}`,
          title: concurrency === 1 ? 'client get, sequential' : `client get, ${concurrency} concurrent`,
          baseline: { label: 'raw fetch', measure: () => measure('raw', rawGet, context.duration) },
          candidate: { label: 'REST client', measure: () => measure('client', clientGet, context.duration) },
          unit: 'calls/s',
          rounds: context.rounds,
          target: { op: '>=', value: 0.95 },
          log: context.log,
        });
        result.comparisons.push(comparison);
        // Client-side CPU per call (this process): the client's own cost, whatever the machine's load.
        const efficiency = cpu.comparison(comparison, 'raw', 'client', 'client-process CPU per call');
        if (efficiency) result.comparisons.push(efficiency);
      }
    } finally {
      await server.stop();
    }
    return result;
  },
};
