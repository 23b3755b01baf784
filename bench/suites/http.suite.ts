import { alternate } from '../lib/alternate';
import { emptyResult, selected, type BenchContext, type Suite } from '../lib/bench-context';
import { CpuPerRequest } from '../lib/cpu-per-request';
import { measureThroughput } from '../lib/http-load';
import { messageRequest, REQUEST_KINDS, REQUEST_TITLES } from '../lib/message-requests';
import { startServer, type ServerProcess } from '../lib/server-process';
import { round } from '../lib/stats';

/**
 * Benchmark 1: the framework (createApp + MemoryService + createHttpAdapter) against a bare
 * Express 5 app doing the same work, per request kind, with authentication off and on. Every
 * scenario gets fresh servers so that creates of one scenario do not grow the next one's store.
 */
export const httpSuite: Suite = {
  name: 'http',
  title: 'HTTP: framework vs bare Express 5 (memory store)',
  async run(context: BenchContext) {
    const result = emptyResult(this, context);
    for (const auth of [false, true]) {
      for (const kind of REQUEST_KINDS) {
        const scenario = `${kind}${auth ? '+auth' : ''}`;
        if (!selected(context, `http-${scenario}`)) continue;
        const settings = { store: 'memory' as const, auth, secret: context.secret };
        const express = await startServer({
          label: `express-${scenario}`, script: context.scripts['express-server'], settings, pinning: context.pinning, profileDir: context.profileDir,
        });
        const framework = await startServer({
          label: `framework-${scenario}`, script: context.scripts['framework-server'], settings, pinning: context.pinning, profileDir: context.profileDir,
        });
        try {
          const cpu = new CpuPerRequest();
          const requestsFor = (server: ServerProcess) => [messageRequest(kind, server.sampleId, auth ? context.token : undefined)];
          const load = (server: ServerProcess, seconds: number) =>
            cpu.measure(server, requestsFor(server), { connections: context.connections, duration: seconds });
          for (const server of [express, framework]) {
            await measureThroughput(server.url, requestsFor(server), { connections: context.connections, duration: context.warmup });
          }
          express.startProfiling();
          framework.startProfiling();
          const comparison = await alternate({
            id: `http-${scenario}`,
            title: `${REQUEST_TITLES[kind]}, authentication ${auth ? 'on' : 'off'}`,
            baseline: { label: 'bare Express 5', measure: () => load(express, context.duration) },
            candidate: { label: 'framework', measure: () => load(framework, context.duration) },
            unit: 'req/s',
            rounds: context.rounds,
            target: { op: '>=', value: auth ? 1.0 : 1.2 },
            log: context.log,
          });
          result.comparisons.push(comparison);
          const efficiency = cpu.comparison(comparison, express, framework);
          if (efficiency) result.comparisons.push(efficiency);
          for (const server of [express, framework]) {
            result.figures.push({ id: `rss-after-${server.label}`, title: `RSS after the ${scenario} runs, ${server.label.split('-')[0]}`, value: round(server.rssMb() ?? NaN, 1), unit: 'MB' });
          }
        } finally {
          await Promise.all([express.stop(), framework.stop()]);
        }
      }
    }
    return result;
  },
};
