import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { AgainstTree } from './against-tree';
import { RESULTS_DIR } from './bundle-servers';
import type { Comparison, SuiteResult } from './results';

/** A scenario's throughput comparison and, when measured, its server-CPU row. */
interface Measured {
  throughput: Comparison;
  cpu?: Comparison;
}

interface ScenarioReport {
  id: string;
  title: string;
  /**
   * This tree / the framework at the ref: throughput, and CPU per request (the ref's CPU / this tree's: above 1, this
   * tree needs less).
   */
  thisVsRef: Measured;
  /** Both versions against each of the scenario's baselines, from the same rounds. */
  baselines: Array<{ baseline: string; thisTree: Measured; atRef: Measured }>;
}

export interface AgainstReport {
  ref: string;
  commit: string;
  command: string;
  ranAt: string;
  environment: Record<string, string | number>;
  /** How the other tree was set up (lock file, protocol). */
  notes: string[];
  suites: Record<string, { title: string; scenarios: ScenarioReport[]; notes: string[] }>;
}

/** Below this, a ratio this tree / ref counts as a regression (issue 25: no ratio more than 5 % below). */
const REGRESSION_BELOW = 0.95;

function measured(result: SuiteResult, id: string): Measured {
  const throughput = result.comparisons.find((c) => c.id === id);
  if (!throughput) throw new Error(`${result.suite}: no comparison '${id}'`);
  return { throughput, cpu: result.comparisons.find((c) => c.id === `${id}-cpu`) };
}

/** Collects the `--against` rows of the suites that ran into one report. */
export function buildAgainstReport(
  tree: Pick<AgainstTree, 'ref' | 'commit' | 'notes'>,
  ran: SuiteResult[],
  run: { command: string; environment: Record<string, string | number> },
): AgainstReport {
  const suites: AgainstReport['suites'] = {};
  for (const result of ran) {
    if (!result.against) continue;
    suites[result.suite] = {
      title: result.title,
      notes: result.notes,
      scenarios: result.against.map((scenario) => ({
        id: scenario.id,
        title: scenario.title,
        thisVsRef: measured(result, scenario.thisVsRef),
        baselines: scenario.baselines.map((pair) => {
          const thisTree = measured(result, pair.thisTree);
          return { baseline: thisTree.throughput.baseline, thisTree, atRef: measured(result, pair.atRef) };
        }),
      })),
    };
  }
  return {
    ref: tree.ref,
    commit: tree.commit,
    command: run.command,
    ranAt: new Date().toISOString(),
    environment: run.environment,
    notes: tree.notes,
    suites,
  };
}

const ratio = (c: Comparison | undefined) =>
  c ? `${c.ratio.median.toFixed(3)} [${c.ratio.min.toFixed(3)} – ${c.ratio.max.toFixed(3)}]` : 'n/a';
const short = (m: Measured) =>
  `${m.throughput.ratio.median.toFixed(3)}${m.cpu ? ` (CPU ${m.cpu.ratio.median.toFixed(3)})` : ''}`;

/** The report as printed: per scenario, this tree / ref, then both versions against each baseline. */
export function renderAgainstReport(report: AgainstReport): string {
  const lines = [
    `\n== This tree against the framework at ${report.ref} (${report.commit.slice(0, 12)}), same rounds`,
    `  ratios: median [min – max] of the rounds; throughput this tree / ${report.ref}; server CPU per request ` +
      `(call, event) ${report.ref} / this tree (above 1: this tree needs less)`,
    ...report.notes.map((note) => `  note: ${note}`),
  ];
  for (const suite of Object.values(report.suites)) {
    lines.push(`\n  ${suite.title}`);
    for (const scenario of suite.scenarios) {
      const { throughput, cpu } = scenario.thisVsRef;
      const flag =
        throughput.ratio.median < REGRESSION_BELOW || (cpu !== undefined && cpu.ratio.median < REGRESSION_BELOW)
          ? `  <- more than ${Math.round((1 - REGRESSION_BELOW) * 100)} % below ${report.ref}`
          : '';
      lines.push(`  ${scenario.title}: throughput ${ratio(throughput)}, server CPU ${ratio(cpu)}${flag}`);
      lines.push(
        `      ${throughput.unit}: this ` +
          `tree ${throughput.candidateValue.median.toFixed(0)}, ${report.ref} ` +
          `${throughput.baselineValue.median.toFixed(0)}`,
      );
      for (const pair of scenario.baselines) {
        lines.push(`      vs ${pair.baseline}: this tree ${short(pair.thisTree)} | ${report.ref} ${short(pair.atRef)}`);
      }
    }
  }
  return lines.join('\n');
}

/** Writes the report to `bench/results/against-<ref>.json` (the ref made safe for a file name); returns the path. */
export function writeAgainstReport(report: AgainstReport): string {
  const file = path.join(RESULTS_DIR, `against-${report.ref.replace(/[^A-Za-z0-9._-]+/g, '_')}.json`);
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  return file;
}
