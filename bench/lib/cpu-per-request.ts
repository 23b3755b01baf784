import { runCalls, type CallLoopOptions } from './call-loop';
import { measureLoad, type LoadOptions, type LoadRequest } from './http-load';
import type { Comparison } from './results';
import type { ServerProcess } from './server-process';
import { summarize } from './stats';

/**
 * Throughput depends on how much of its core a server got, which other processes on a shared
 * machine take a share of; the server's own CPU time per request does not. Each measurement
 * records both, so a comparison can be reported as efficiency too.
 */
export class CpuPerRequest {
  private readonly samples = new Map<string, number[]>();

  /** Runs the load and returns requests per second; keeps the server's CPU µs per request. */
  async measure(server: ServerProcess, requests: LoadRequest[], options: LoadOptions): Promise<number> {
    const before = server.cpuMs();
    const { perSecond, total } = await measureLoad(server.url, requests, options);
    const after = server.cpuMs();
    if (before !== undefined && after !== undefined && total > 0)
      this.add(server.label, ((after - before) * 1000) / total);
    return perSecond;
  }

  /** Calls `call` like `measureCallRate` and keeps this process's CPU µs per call under `label`. */
  async measureCalls(label: string, call: () => Promise<unknown>, options: CallLoopOptions): Promise<number> {
    const before = process.cpuUsage();
    const { perSecond, calls } = await runCalls(call, options);
    const used = process.cpuUsage(before);
    if (calls > 0) this.add(label, (used.user + used.system) / calls);
    return perSecond;
  }

  add(label: string, microsPerCall: number): void {
    const list = this.samples.get(label) ?? [];
    list.push(microsPerCall);
    this.samples.set(label, list);
  }

  /**
   * The efficiency comparison matching `throughput`: per round, baseline CPU per request /
   * candidate CPU per request (above 1: the candidate needs less CPU per request).
   */
  comparison(
    throughput: Comparison,
    baseline: ServerProcess | string,
    candidate: ServerProcess | string,
    what = 'server CPU per request',
  ): Comparison | undefined {
    const a = this.samples.get(typeof baseline === 'string' ? baseline : baseline.label);
    const b = this.samples.get(typeof candidate === 'string' ? candidate : candidate.label);
    if (!a || !b || a.length !== b.length || a.length === 0) return undefined;
    return {
      id: `${throughput.id}-cpu`,
      title: `${throughput.title} (${what})`,
      baseline: throughput.baseline,
      candidate: throughput.candidate,
      unit: 'CPU µs/call',
      ratio: summarize(a.map((value, i) => value / b[i])),
      baselineValue: summarize(a),
      candidateValue: summarize(b),
    };
  }
}
