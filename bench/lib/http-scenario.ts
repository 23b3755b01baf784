import { alternateRounds, compareRounds } from './alternate';
import type { BenchContext } from './bench-context';
import type { ServerName } from './bundle-servers';
import { CpuPerRequest } from './cpu-per-request';
import { measureThroughput, type LoadRequest } from './http-load';
import type { Comparison, Figure, Target } from './results';
import { startServer, type ServerProcess } from './server-process';
import { round } from './stats';
import type { ServerSettings } from '../servers/server-protocol';

/** One server of a scenario. */
export interface ScenarioServer {
  /** Short key, used in ids and process labels (e.g. `fastify-helmet`). */
  key: string;
  /** How the reports name it (e.g. `Fastify 5 + @fastify/helmet`). */
  name: string;
  script: ServerName;
  settings: ServerSettings;
}

/** A ratio to report: `candidate` / `baseline`, both keys of the scenario's servers. */
export interface ScenarioPair {
  id: string;
  title: string;
  baseline: string;
  candidate: string;
  target?: Target;
  /** Also report server CPU per request for this pair. */
  cpu?: boolean;
}

export interface HttpScenario {
  /** Prefix of the process labels and of the progress lines, e.g. `get+auth`. */
  name: string;
  servers: ScenarioServer[];
  request: (server: ServerProcess) => LoadRequest;
  pairs: ScenarioPair[];
}

/**
 * Runs one HTTP scenario: fresh servers (so creates of one scenario do not grow the next one's
 * store), a warm-up each, then every server measured once per round in alternating order, and
 * each pair's ratios taken from those same rounds, with CPU per request beside throughput.
 * Returns the comparisons and each server's RSS after its runs.
 */
export async function runHttpScenario(context: BenchContext, scenario: HttpScenario): Promise<{ comparisons: Comparison[]; figures: Figure[] }> {
  const servers: ServerProcess[] = [];
  try {
    for (const server of scenario.servers) {
      servers.push(await startServer({
        label: `${server.key}-${scenario.name}`, script: context.scripts[server.script], settings: server.settings, pinning: context.pinning, profileDir: context.profileDir,
      }));
    }
    const cpu = new CpuPerRequest();
    const load = (server: ServerProcess, seconds: number) =>
      cpu.measure(server, [scenario.request(server)], { connections: context.connections, duration: seconds });
    for (const server of servers) {
      await measureThroughput(server.url, [scenario.request(server)], { connections: context.connections, duration: context.warmup });
    }
    for (const server of servers) server.startProfiling();
    const values = await alternateRounds(
      scenario.name,
      servers.map((server, index) => ({ label: scenario.servers[index].key, measure: () => load(server, context.duration) })),
      context.rounds,
      'req/s',
      context.log,
    );
    const indexOf = (key: string) => {
      const index = scenario.servers.findIndex((server) => server.key === key);
      if (index === -1) throw new Error(`scenario ${scenario.name} has no server '${key}'`);
      return index;
    };
    const comparisons: Comparison[] = [];
    for (const pair of scenario.pairs) {
      const [b, c] = [indexOf(pair.baseline), indexOf(pair.candidate)];
      const throughput = compareRounds({
        id: pair.id,
        title: pair.title,
        baseline: { label: scenario.servers[b].name, values: values[b] },
        candidate: { label: scenario.servers[c].name, values: values[c] },
        unit: 'req/s',
        target: pair.target,
      });
      comparisons.push(throughput);
      const efficiency = pair.cpu ? cpu.comparison(throughput, servers[b], servers[c]) : undefined;
      if (efficiency) comparisons.push(efficiency);
    }
    const figures = servers.map((server, index): Figure => ({
      id: `rss-after-${server.label}`, title: `RSS after the ${scenario.name} runs, ${scenario.servers[index].name}`, value: round(server.rssMb() ?? NaN, 1), unit: 'MB',
    }));
    return { comparisons, figures };
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
}
