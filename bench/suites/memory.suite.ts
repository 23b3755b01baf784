import { emptyResult, type BenchContext, type Suite } from '../lib/bench-context';
import { measureThroughput } from '../lib/http-load';
import { messageRequest } from '../lib/message-requests';
import { startServer, type ServerProcess } from '../lib/server-process';
import { meets, type Figure } from '../lib/results';
import { round } from '../lib/stats';

const FIRST = 10_000;
const TOTAL = 100_000;
const IDLE_TARGET_MB = 70;
const GROWTH_TARGET_PCT = 10;

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Benchmark 6: resident memory of the framework server child (VmRSS), idle and after 10,000 and
 * 100,000 alternating get/find requests, on both stores (the database store hosts the embedded
 * server in the same process, as `npm start` does). Bare Express is measured idle for reference.
 */
export const memorySuite: Suite = {
  name: 'memory',
  title: 'Memory: server RSS idle and under sustained get/find load',
  async run(context: BenchContext) {
    const result = emptyResult(this, context);
    const express = await startServer({ label: 'express-memory', script: context.scripts['express-server'], pinning: context.pinning });
    await settle(1000);
    result.figures.push({ id: 'rss-idle-express', title: 'RSS idle, bare Express 5 (reference)', value: round(express.rssMb() ?? NaN, 1), unit: 'MB' });
    await express.stop();

    for (const store of ['memory', 'mongo'] as const) {
      const server = await startServer({
        label: `framework-rss-${store}`, script: context.scripts['framework-server'], settings: { store, auth: false, secret: context.secret },
        pinning: context.pinning, profileDir: context.profileDir,
      });
      try {
        result.figures.push(...(await measureGrowth(server, store, context)));
      } finally {
        await server.stop();
      }
    }
    return result;
  },
};

async function measureGrowth(server: ServerProcess, store: string, context: BenchContext): Promise<Figure[]> {
  const storeName = store === 'memory' ? 'memory store' : 'database store (embedded server in process)';
  await settle(1000);
  const idle = server.rssMb() ?? NaN;
  const requests = [messageRequest('get', server.sampleId), messageRequest('find', server.sampleId)];
  const load = (amount: number) => measureThroughput(server.url, requests, { connections: context.connections, duration: 0, amount });
  await load(FIRST);
  await settle(500);
  const afterFirst = server.rssMb() ?? NaN;
  await load(TOTAL - FIRST);
  await settle(500);
  const afterTotal = server.rssMb() ?? NaN;
  const growthPct = ((afterTotal - afterFirst) / afterFirst) * 100;
  const growthTarget = { op: '<=' as const, value: GROWTH_TARGET_PCT };
  const idleTarget = { op: '<=' as const, value: IDLE_TARGET_MB };
  return [
    { id: `rss-idle-${store}`, title: `RSS idle, framework on the ${storeName}`, value: round(idle, 1), unit: 'MB', target: idleTarget, met: meets(idleTarget, idle) },
    { id: `rss-10k-${store}`, title: `RSS after ${FIRST.toLocaleString('en')} requests, ${storeName}`, value: round(afterFirst, 1), unit: 'MB' },
    { id: `rss-100k-${store}`, title: `RSS after ${TOTAL.toLocaleString('en')} requests, ${storeName}`, value: round(afterTotal, 1), unit: 'MB' },
    {
      id: `rss-growth-${store}`, title: `RSS growth from ${FIRST.toLocaleString('en')} to ${TOTAL.toLocaleString('en')} requests, ${storeName}`,
      value: round(growthPct, 1), unit: '%', target: growthTarget, met: meets(growthTarget, growthPct),
    },
  ];
}
