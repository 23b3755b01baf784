import { emptyResult, selected, type BenchContext, type Suite } from '../lib/bench-context';
import { runHttpScenario } from '../lib/http-scenario';
import { messageRequest, REQUEST_KINDS, REQUEST_TITLES } from '../lib/message-requests';

/**
 * Benchmark 2: the framework server on the default store (DatabaseService on the embedded server,
 * hosted in the server child) against Fastify 5 doing the same three requests through the official
 * driver on an embedded server of its own, started the same way in its own process (target), and,
 * for scale, against the framework's memory store (no target: what the database round trip costs
 * over HTTP).
 */
export const storeSuite: Suite = {
  name: 'store',
  title: 'HTTP on the default store: DatabaseService (embedded server) vs Fastify 5 + driver and vs MemoryService',
  async run(context: BenchContext) {
    const result = emptyResult(this, context);
    for (const kind of REQUEST_KINDS) {
      const id = `store-${kind}`;
      // --only store-get-vs-fastify-driver runs the whole scenario too: its ratios share its rounds.
      if (!selected(context, id) && !selected(context, `${id}-vs-fastify-driver`)) continue;
      const settings = (store: 'memory' | 'mongo') => ({ store, auth: false, secret: context.secret });
      const { comparisons, figures } = await runHttpScenario(context, {
        name: `store-${kind}`,
        servers: [
          { key: 'framework-memory', name: 'MemoryService', script: 'framework-server', settings: settings('memory') },
          {
            key: 'fastify-mongo',
            name: 'Fastify 5 + driver (embedded)',
            script: 'fastify-server',
            settings: settings('mongo'),
          },
          {
            key: 'framework-mongo',
            name: 'DatabaseService (embedded)',
            script: 'framework-server',
            settings: settings('mongo'),
          },
        ],
        pairs: [
          {
            id: `${id}-vs-fastify-driver`,
            title: `${REQUEST_TITLES[kind]}: DatabaseService vs Fastify 5 + driver`,
            baseline: 'fastify-mongo',
            candidate: 'framework-mongo',
            target: { op: '>=', value: 1.0 },
            cpu: true,
          },
          {
            id,
            title: `${REQUEST_TITLES[kind]}: database store / memory store`,
            baseline: 'framework-memory',
            candidate: 'framework-mongo',
            cpu: true,
          },
        ],
        request: (server) => messageRequest(kind, server.sampleId),
      });
      result.comparisons.push(...comparisons);
      result.figures.push(...figures);
    }
    return result;
  },
};
