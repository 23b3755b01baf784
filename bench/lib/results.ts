import type { Summary } from './stats';

export interface Target {
  op: '>=' | '<=';
  value: number;
}

/** One A/B comparison: the candidate measured against a baseline in the same run, round by round. */
export interface Comparison {
  id: string;
  title: string;
  baseline: string;
  candidate: string;
  /** Unit of the raw figures, e.g. `req/s`, `calls/s`, `ms/call`. */
  unit: string;
  /** Per round: candidate / baseline (for times, a ratio above 1 is slower). */
  ratio: Summary;
  baselineValue: Summary;
  candidateValue: Summary;
  target?: Target;
  met?: boolean;
  notes?: string[];
}

/** A single figure that is not a ratio (memory, cost per record). */
export interface Figure {
  id: string;
  title: string;
  value: number;
  unit: string;
  target?: Target;
  met?: boolean;
  detail?: string;
}

export interface SuiteResult {
  suite: string;
  title: string;
  ranAt: string;
  quick: boolean;
  /** The command line that produced this suite's figures. */
  command?: string;
  comparisons: Comparison[];
  figures: Figure[];
  notes: string[];
  /** Set with `--against`: how the scenarios' comparisons pair up for the report against the other commit. */
  against?: AgainstScenario[];
}

/** One scenario of an `--against` run: which comparisons hold this tree against the other commit's framework. */
export interface AgainstScenario {
  /** e.g. `http-get+auth` or `socket-get-sequential`. */
  id: string;
  title: string;
  /** Id of the comparison this tree / the framework at the ref (its CPU row, when measured, is `<id>-cpu`). */
  thisVsRef: string;
  /**
   * Per baseline of the scenario: the ids of this tree's and the ref's comparison against it (CPU rows: `<id>-cpu`).
   */
  baselines: Array<{ baseline: string; thisTree: string; atRef: string }>;
}

export interface ResultsFile {
  command: string;
  updatedAt: string;
  environment: Record<string, string | number>;
  suites: Record<string, SuiteResult>;
}

export function meets(target: Target | undefined, value: number): boolean | undefined {
  if (!target) return undefined;
  return target.op === '>=' ? value >= target.value : value <= target.value;
}
