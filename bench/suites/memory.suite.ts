import { emptyResult, type BenchContext, type Suite } from '../lib/bench-context';
import { measureThroughput } from '../lib/http-load';
import { messageRequest } from '../lib/message-requests';
import { startServer, type ServerProcess } from '../lib/server-process';
import { meets, type Figure } from '../lib/results';
import { round } from '../lib/stats';

const FIRST = 10_000;
const TOTAL = 100_000;
/** RSS is read after every STEP requests. */
const STEP = 10_000;
const IDLE_TARGET_MB = 70;
const GROWTH_TARGET_PCT = 10;

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whose memory is measured, and which targets apply to it. */
interface Subject {
  id: string;
  name: string;
  idleTarget: boolean;
  growthTarget: boolean;
}

/**
 * Benchmark 6: resident memory of a server child (VmRSS), idle and after every 10,000 of 100,000
 * alternating get/find requests, as it comes and after a full garbage collection, with the
 * child's live heap and young-generation size: bare Express 5 and bare Fastify 5 as the
 * baselines under the same load, then the framework on both stores (the database store hosts
 * the embedded server in the same process, as `npm start` does).
 */
export const memorySuite: Suite = {
  name: 'memory',
  title: 'Memory: server RSS idle and under sustained get/find load',
  async run(context: BenchContext) {
    const result = emptyResult(this, context);
    const baselines = [
      { id: 'express', name: 'bare Express 5 (baseline)', script: context.scripts['express-server'] },
      { id: 'fastify', name: 'bare Fastify 5 (baseline)', script: context.scripts['fastify-server'] },
    ];
    const idle = new Map<string, number>();
    for (const baseline of baselines) {
      const server = await startServer({
        label: `${baseline.id}-memory`,
        script: baseline.script,
        pinning: context.pinning,
      });
      try {
        const figures = await measureGrowth(
          server,
          { id: baseline.id, name: baseline.name, idleTarget: false, growthTarget: false },
          context,
        );
        idle.set(baseline.id, figures[0].value);
        result.figures.push(...figures);
      } finally {
        await server.stop();
      }
    }
    for (const store of ['memory', 'mongo'] as const) {
      const server = await startServer({
        label: `framework-rss-${store}`,
        script: context.scripts['framework-server'],
        settings: { store, auth: false, secret: context.secret },
        pinning: context.pinning,
        profileDir: context.profileDir,
      });
      // The idle target is the HTTP bench server's (benchmark 1, memory store). The database-store
      // process also hosts the embedded database server and the MongoDB driver (about 22 MB alone),
      // so its idle figure is reported for reference, without the target.
      const subject =
        store === 'memory'
          ? { id: store, name: 'framework, memory store', idleTarget: true, growthTarget: true }
          : {
              id: store,
              name: 'framework, database store (embedded server in process)',
              idleTarget: false,
              growthTarget: true,
            };
      try {
        const figures = await measureGrowth(server, subject, context);
        result.figures.push(...figures);
        if (store === 'memory') result.figures.push(idleVersusFastify(figures[0].value, idle.get('fastify') ?? NaN));
      } finally {
        await server.stop();
      }
    }
    return result;
  },
};

/** The issue's idle target: the HTTP bench server on the memory store at most bare Fastify 5's idle RSS. */
function idleVersusFastify(framework: number, fastify: number): Figure {
  const target = { op: '<=' as const, value: 0 };
  const difference = framework - fastify;
  return {
    id: 'rss-idle-framework-minus-fastify',
    title: 'RSS idle, framework (memory store) minus bare Fastify 5',
    value: round(difference, 1),
    unit: 'MB',
    detail: `${round(framework, 1)} MB vs ${round(fastify, 1)} MB`,
    target,
    met: meets(target, difference),
  };
}

async function measureGrowth(server: ServerProcess, subject: Subject, context: BenchContext): Promise<Figure[]> {
  const { id, name } = subject;
  await settle(1000);
  const idle = server.rssMb() ?? NaN;
  const requests = [messageRequest('get', server.sampleId), messageRequest('find', server.sampleId)];
  const samples: Sample[] = [];
  for (let done = 0; done < TOTAL; done += STEP) {
    await measureThroughput(server.url, requests, { connections: context.connections, duration: 0, amount: STEP });
    await settle(300);
    // RSS as it comes, then the same process after a full collection: what it retains.
    const rss = server.rssMb() ?? NaN;
    const collected = await server.heap(true);
    // V8 sweeps and returns freed pages concurrently, just after the collection itself.
    await settle(300);
    samples.push({
      requests: done + STEP,
      rss,
      rssCollected: server.rssMb() ?? NaN,
      young: collected?.youngGenerationMb ?? NaN,
      live: collected?.usedHeapMb ?? NaN,
    });
  }
  const first = samples.find((sample) => sample.requests === FIRST)!;
  const last = samples[samples.length - 1];
  const growth = (pick: (sample: Sample) => number) => ((pick(last) - pick(first)) / pick(first)) * 100;
  // Memory kept per request is memory held by live objects, so "no growth per request" is judged on
  // the live heap after a full collection. RSS also moves with what V8 keeps committed: it doubles
  // its young generation by itself under sustained allocation (up to a fixed maximum) and keeps
  // freed old-space pages for reuse; both are reported, not judged (bench/README finding 6).
  const liveGrowth = growth((sample) => sample.live);
  const growthTarget = subject.growthTarget ? { op: '<=' as const, value: GROWTH_TARGET_PCT } : undefined;
  const idleTarget = subject.idleTarget ? { op: '<=' as const, value: IDLE_TARGET_MB } : undefined;
  const firstText = FIRST.toLocaleString('en');
  const totalText = TOTAL.toLocaleString('en');
  const series = (pick: (sample: Sample) => number) =>
    `every ${STEP.toLocaleString('en')}: ${samples.map((sample) => round(pick(sample), 1)).join(', ')} MB`;
  const fromTo = (pick: (sample: Sample) => number) =>
    `${round(pick(first), 1)} MB after ${firstText}, ${round(pick(last), 1)} MB after ${totalText}`;
  return [
    {
      id: `rss-idle-${id}`,
      title: `RSS idle, ${name}`,
      value: round(idle, 1),
      unit: 'MB',
      ...(idleTarget && { target: idleTarget, met: meets(idleTarget, idle) }),
    },
    { id: `rss-10k-${id}`, title: `RSS after ${firstText} requests, ${name}`, value: round(first.rss, 1), unit: 'MB' },
    {
      id: `rss-100k-${id}`,
      title: `RSS after ${totalText} requests, ${name}`,
      value: round(last.rss, 1),
      unit: 'MB',
      detail: series((sample) => sample.rss),
    },
    {
      id: `rss-growth-${id}`,
      title: `RSS growth from ${firstText} to ${totalText} requests, ${name}`,
      value: round(
        growth((sample) => sample.rss),
        1,
      ),
      unit: '%',
    },
    {
      id: `rss-collected-growth-${id}`,
      title: `RSS growth after a full collection, ${firstText} to ${totalText} requests, ${name}`,
      value: round(
        growth((sample) => sample.rssCollected),
        1,
      ),
      unit: '%',
      detail: fromTo((sample) => sample.rssCollected),
    },
    {
      id: `young-generation-${id}`,
      title: `V8 young generation after ${totalText} requests, ${name}`,
      value: round(last.young, 1),
      unit: 'MB',
      detail: `${round(first.young, 1)} MB after ${firstText}`,
    },
    {
      id: `live-heap-growth-${id}`,
      title: `Live heap growth after a full collection, ${firstText} to ${totalText} requests, ${name}`,
      value: round(liveGrowth, 1),
      unit: '%',
      detail: `${fromTo((sample) => sample.live)}; ${series((sample) => sample.live)}`,
      ...(growthTarget && { target: growthTarget, met: meets(growthTarget, liveGrowth) }),
    },
  ];
}

interface Sample {
  requests: number;
  /** Resident memory as it comes after the batch. */
  rss: number;
  /** Resident memory after a full collection. */
  rssCollected: number;
  /** V8's committed young generation. */
  young: number;
  /** Memory held by live objects after the full collection. */
  live: number;
}
