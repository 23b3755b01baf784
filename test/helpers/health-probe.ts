import { Agent, get } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';

/** One `GET /health` over `agent`: its status (a probe that takes over 30 s fails). */
export function getHealth(base: string, agent: Agent): Promise<number> {
  return new Promise((resolve, reject) => {
    get(`${base}/health`, { agent, timeout: 30_000 }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode!));
    })
      .on('error', reject)
      .on('timeout', function (this: { destroy(error: Error): void }) {
        this.destroy(new Error('/health timed out'));
      });
  });
}

export interface HealthDuring<T> {
  result: T;
  /** How long `work` took, ms. */
  ms: number;
  /** Each probe's round trip, ms. */
  latencies: number[];
  healthStatuses: Set<number>;
}

/**
 * Runs `work` while `/health` is polled one request at a time on a kept-alive connection of its
 * own (opened and warmed first), `pauseMs` between probes, at most `maxSamples` probes: what the
 * event loop let other clients have while the work ran.
 */
export async function healthDuring<T>(
  base: string,
  work: () => Promise<T>,
  options: { pauseMs: number; maxSamples: number; warmUp?: number },
): Promise<HealthDuring<T>> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    for (let i = 0; i < (options.warmUp ?? 10); i++) await getHealth(base, agent);
    let finished = false;
    const started = performance.now();
    const running = work().finally(() => (finished = true));
    running.catch(() => undefined);
    const latencies: number[] = [];
    const healthStatuses = new Set<number>();
    while (!finished && latencies.length < options.maxSamples) {
      const sent = performance.now();
      healthStatuses.add(await getHealth(base, agent));
      latencies.push(performance.now() - sent);
      await sleep(options.pauseMs);
    }
    const result = await running;
    return { result, ms: performance.now() - started, latencies, healthStatuses };
  } finally {
    agent.destroy();
  }
}

/** The value at `share` (0..1) of ascending `sorted` values. */
export function percentile(sorted: readonly number[], share: number): number {
  return sorted[Math.max(0, Math.ceil(sorted.length * share) - 1)];
}
