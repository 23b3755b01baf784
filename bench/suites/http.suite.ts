import { againstScript } from '../lib/against-tree';
import { emptyResult, selected, type BenchContext, type Suite } from '../lib/bench-context';
import { runHttpScenario, type ScenarioPair, type ScenarioServer } from '../lib/http-scenario';
import { messageRequest, REQUEST_KINDS, REQUEST_TITLES } from '../lib/message-requests';
import { AT_REF, pairsWithFrameworkAtRef } from '../lib/scenario-pairs';

const FRAMEWORK = 'framework';
const FRAMEWORK_POLICY = 'framework-policy';
const EXPRESS = 'express';
const FASTIFY = 'fastify';
const FASTIFY_HELMET = 'fastify-helmet';
const FASTIFY_JWT = 'fastify-jwt';
const NODE = 'node';
const TRACED_ALL = 'framework-traced-100';
const TRACED_ONE_PERCENT = 'framework-traced-1';

/**
 * Benchmark 1: the framework (createApp + MemoryService + createHttpAdapter) against bare
 * Express 5, bare Fastify 5 and Fastify 5 + @fastify/helmet doing the same work, per request kind,
 * authentication off; with authentication on, against bare Express 5 and Fastify 5 +
 * @fastify/jwt. All servers of a scenario are measured in the same alternating rounds, so every
 * ratio (including Fastify's own to Express, for context) comes from the same run. Every scenario
 * gets fresh servers so that creates of one scenario do not grow the next one's store.
 * With `--against <ref>`, the framework at that commit is one more server of every scenario.
 */
export const httpSuite: Suite = {
  name: 'http',
  title: 'HTTP: framework vs bare Express 5 and Fastify 5 (memory store)',
  async run(context: BenchContext) {
    const result = emptyResult(this, context);
    for (const auth of [false, true]) {
      for (const kind of REQUEST_KINDS) {
        const scenario = `${kind}${auth ? '+auth' : ''}`;
        const id = `http-${scenario}`;
        const settings = { store: 'memory' as const, auth, secret: context.secret };
        const side = (key: string, name: string, script: ScenarioServer['script'], helmet = false): ScenarioServer => ({
          key,
          name,
          script,
          settings: { ...settings, helmet },
        });
        const title = (versus: string) => `${REQUEST_TITLES[kind]}, authentication ${auth ? 'on' : 'off'}, ${versus}`;
        const servers = [side(EXPRESS, 'bare Express 5', 'express-server')];
        // The Express comparison keeps its id and target; the Fastify ones are the targets.
        let pairs: ScenarioPair[] = [
          {
            id,
            title: title('vs bare Express 5'),
            baseline: EXPRESS,
            candidate: FRAMEWORK,
            target: { op: '>=', value: auth ? 1.0 : 1.2 },
            cpu: true,
          },
        ];
        if (auth) {
          servers.push(side(FASTIFY_JWT, 'Fastify 5 + @fastify/jwt', 'fastify-server'));
          // A policy's cost on top of authentication: within 10 % of the same framework without one.
          servers.push({
            ...side(FRAMEWORK_POLICY, 'framework with a policy', 'framework-server'),
            settings: { ...settings, policy: true },
          });
          pairs.push(
            {
              id: `${id}-policy-cost`,
              title: title('with a policy vs without'),
              baseline: FRAMEWORK,
              candidate: FRAMEWORK_POLICY,
              target: { op: '>=', value: 0.9 },
              cpu: true,
            },
            {
              id: `${id}-vs-fastify-jwt`,
              title: title('vs Fastify 5 + @fastify/jwt'),
              baseline: FASTIFY_JWT,
              candidate: FRAMEWORK,
              target: { op: '>=', value: 1.0 },
              cpu: true,
            },
            {
              id: `${id}-fastify-jwt-vs-express`,
              title: title('Fastify 5 + @fastify/jwt vs bare Express 5'),
              baseline: EXPRESS,
              candidate: FASTIFY_JWT,
            },
          );
        } else {
          servers.push(
            side(FASTIFY, 'bare Fastify 5', 'fastify-server'),
            side(FASTIFY_HELMET, 'Fastify 5 + @fastify/helmet', 'fastify-server', true),
            side(NODE, 'bare node:http + API headers', 'node-server'),
          );
          pairs.push(
            {
              id: `${id}-vs-fastify`,
              title: title('vs bare Fastify 5'),
              baseline: FASTIFY,
              candidate: FRAMEWORK,
              target: { op: '>=', value: 1.0 },
              cpu: true,
            },
            {
              id: `${id}-vs-fastify-helmet`,
              title: title('vs Fastify 5 + @fastify/helmet'),
              baseline: FASTIFY_HELMET,
              candidate: FRAMEWORK,
              target: { op: '>=', value: 1.0 },
              cpu: true,
            },
            {
              id: `${id}-fastify-vs-express`,
              title: title('bare Fastify 5 vs bare Express 5'),
              baseline: EXPRESS,
              candidate: FASTIFY,
            },
            {
              id: `${id}-fastify-helmet-vs-express`,
              title: title('Fastify 5 + @fastify/helmet vs bare Express 5'),
              baseline: EXPRESS,
              candidate: FASTIFY_HELMET,
            },
            // The floor: no framework at all, but the headers every framework answer carries.
            {
              id: `${id}-vs-node`,
              title: title('vs bare node:http + API headers'),
              baseline: NODE,
              candidate: FRAMEWORK,
              cpu: true,
            },
            {
              id: `${id}-node-vs-fastify`,
              title: title('bare node:http + API headers vs bare Fastify 5'),
              baseline: FASTIFY,
              candidate: NODE,
              cpu: true,
            },
          );
          // Tracing's cost: every request traced (server, service and store spans exported over OTLP), and one in a
          // hundred.
          servers.push(
            {
              ...side(TRACED_ALL, 'framework, tracing at 100 %', 'framework-server'),
              settings: { ...settings, tracingRatio: 1 },
            },
            {
              ...side(TRACED_ONE_PERCENT, 'framework, tracing at 1 %', 'framework-server'),
              settings: { ...settings, tracingRatio: 0.01 },
            },
          );
          pairs.push(
            {
              id: `${id}-tracing-100`,
              title: title('traced at 100 % vs tracing off'),
              baseline: FRAMEWORK,
              candidate: TRACED_ALL,
              target: { op: '>=', value: 0.8 },
              cpu: true,
            },
            {
              id: `${id}-tracing-1`,
              title: title('traced at 1 % vs tracing off'),
              baseline: FRAMEWORK,
              candidate: TRACED_ONE_PERCENT,
              cpu: true,
            },
          );
        }
        servers.push(side(FRAMEWORK, 'framework', 'framework-server'));
        // A scenario runs whole (its ratios share its rounds) when --only names any of its comparisons.
        if (!pairs.some((pair) => selected(context, pair.id))) continue;
        if (context.against) {
          const atRef = pairsWithFrameworkAtRef(
            { id, title: `${REQUEST_TITLES[kind]}, authentication ${auth ? 'on' : 'off'}` },
            pairs,
            FRAMEWORK,
            context.against.ref,
          );
          pairs = atRef.pairs;
          // Beside this tree's framework, with its settings: the two differ only in their code.
          servers.splice(servers.length - 1, 0, {
            ...side(AT_REF, `framework at ${context.against.ref}`, 'framework-server'),
            scriptPath: againstScript(context.against, 'framework-server'),
          });
          (result.against ??= []).push(atRef.against);
        }
        const { comparisons, figures } = await runHttpScenario(context, {
          name: scenario,
          servers,
          pairs,
          request: (server) => messageRequest(kind, server.sampleId, auth ? context.token : undefined),
        });
        result.comparisons.push(...comparisons);
        result.figures.push(...figures);
      }
    }
    return result;
  },
};
