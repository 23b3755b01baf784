import type { AgainstTree } from './against-tree';
import type { Pinning } from './cpu-pinning';
import type { ServerName } from './bundle-servers';
import type { SuiteResult } from './results';

/** Everything a suite needs from the harness. */
export interface BenchContext {
  quick: boolean;
  /** A/B rounds per comparison (at least 3). */
  rounds: number;
  /** Seconds per HTTP measurement. */
  duration: number;
  /** Seconds of warm-up load per server before its rounds. */
  warmup: number;
  /** Concurrent HTTP connections of the load generator. */
  connections: number;
  pinning: Pinning;
  scripts: Record<ServerName, string>;
  /** Set with `--profile`: framework children write CPU profiles here. */
  profileDir?: string;
  /** Set with `--only`: run only the comparisons whose id contains this text. */
  only?: string;
  /** Set with `--against <ref>`: the framework at that commit, one more contender in the http and realtime suites. */
  against?: Pick<AgainstTree, 'ref' | 'scripts'>;
  secret: string;
  /** A valid HS256 bearer token for `secret`, with the claims of `BENCH_TOKEN_CLAIMS`. */
  token: string;
  log: (line: string) => void;
}

export interface Suite {
  name: string;
  title: string;
  run(context: BenchContext): Promise<SuiteResult>;
}

export function emptyResult(suite: Suite, context: BenchContext): SuiteResult {
  return {
    suite: suite.name,
    title: suite.title,
    ranAt: new Date().toISOString(),
    quick: context.quick,
    comparisons: [],
    figures: [],
    notes: [],
  };
}

/** Whether `--only` lets the comparison `id` run. */
export function selected(context: BenchContext, id: string): boolean {
  return !context.only || id.includes(context.only);
}
