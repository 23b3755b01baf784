import { alternateRounds } from './alternate';
import type { BenchContext } from './bench-context';
import type { ServerName } from './bundle-servers';
import { CpuPerRequest } from './cpu-per-request';
import { measureThroughput, type LoadRequest } from './http-load';
import type { Comparison, Figure } from './results';
import { comparePairs, type ScenarioPair } from './scenario-pairs';
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
  /** A bundle to run instead of this tree's `script` (the framework at the `--against` ref). */
  scriptPath?: string;
  settings: ServerSettings;
}

export type { ScenarioPair } from './scenario-pairs';

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
export async function runHttpScenario(
  context: BenchContext,
  scenario: HttpScenario,
): Promise<{ comparisons: Comparison[]; figures: Figure[] }> {
  const servers: ServerProcess[] = [];
  try {
    for (const server of scenario.servers) {
      servers.push(
        await startServer({
          label: `${server.key}-${scenario.name}`,
          script: server.scriptPath ?? context.scripts[server.script],
          settings: server.settings,
          pinning: context.pinning,
          profileDir: context.profileDir,
        }),
      );
    }
    const cpu = new CpuPerRequest();
    const load = (server: ServerProcess, seconds: number) =>
      cpu.measure(server, [scenario.request(server)], { connections: context.connections, duration: seconds });
    for (const server of servers) {
      await measureThroughput(server.url, [scenario.request(server)], {
        connections: context.connections,
        duration: context.warmup,
      });
    }
    for (const server of servers) server.startProfiling();
    const values = await alternateRounds(
      scenario.name,
      servers.map((server, index) => ({
        label: scenario.servers[index].key,
        measure: () => load(server, context.duration),
      })),
      context.rounds,
      'req/s',
      context.log,
    );
    const comparisons: Comparison[] = comparePairs(
      scenario.servers.map((server, index) => ({
        key: server.key,
        name: server.name,
        values: values[index],
        cpuLabel: servers[index].label,
      })),
      scenario.pairs,
      'req/s',
      cpu,
    );
    const figures = servers.map((server, index): Figure => ({
      id: `rss-after-${server.label}`,
      title: `RSS after the ${scenario.name} runs, ${scenario.servers[index].name}`,
      value: round(server.rssMb() ?? NaN, 1),
      unit: 'MB',
    }));
    return { comparisons, figures };
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
}
