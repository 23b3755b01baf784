import { compareRounds } from './alternate';
import type { CpuPerRequest } from './cpu-per-request';
import type { AgainstScenario, Comparison, Target } from './results';

/** A ratio to report: `candidate` / `baseline`, both keys of the scenario's contenders. */
export interface ScenarioPair {
  id: string;
  title: string;
  baseline: string;
  candidate: string;
  target?: Target;
  /** Also report server CPU per request for this pair. */
  cpu?: boolean;
}

/** A contender's figures from the scenario's alternating rounds. */
export interface MeasuredContender {
  key: string;
  /** How the reports name it. */
  name: string;
  /** One figure per round. */
  values: number[];
  /** The label its CPU samples were kept under in the scenario's `CpuPerRequest`. */
  cpuLabel: string;
}

/** Each pair's comparison from the same rounds, followed by its CPU row when the pair asks for one. */
export function comparePairs(
  contenders: MeasuredContender[],
  pairs: ScenarioPair[],
  unit: string,
  cpu: CpuPerRequest,
  cpuRow: { what?: string; unit?: string } = {},
): Comparison[] {
  const find = (key: string) => {
    const contender = contenders.find((c) => c.key === key);
    if (!contender) throw new Error(`no contender '${key}' among ${contenders.map((c) => c.key).join(', ')}`);
    return contender;
  };
  const comparisons: Comparison[] = [];
  for (const pair of pairs) {
    const [baseline, candidate] = [find(pair.baseline), find(pair.candidate)];
    const throughput = compareRounds({
      id: pair.id,
      title: pair.title,
      unit,
      target: pair.target,
      baseline: { label: baseline.name, values: baseline.values },
      candidate: { label: candidate.name, values: candidate.values },
    });
    comparisons.push(throughput);
    const efficiency = pair.cpu
      ? cpu.comparison(throughput, baseline.cpuLabel, candidate.cpuLabel, cpuRow.what)
      : undefined;
    if (efficiency) comparisons.push(cpuRow.unit ? { ...efficiency, unit: cpuRow.unit } : efficiency);
  }
  return comparisons;
}

/** The key of the framework at the `--against` ref among a scenario's contenders. */
export const AT_REF = 'framework-at-ref';

/**
 * With `--against`: the scenario's pairs plus this tree's framework against the ref's
 * (`<scenario>-this-vs-ref`, throughput and CPU) and, for every pair that measures this tree's
 * framework against a baseline, the same pair for the ref's (`<pair>-at-ref`, without the
 * target: targets are this tree's). Also says how they pair up, for the report.
 */
export function pairsWithFrameworkAtRef(
  scenario: { id: string; title: string },
  pairs: ScenarioPair[],
  framework: string,
  ref: string,
): { pairs: ScenarioPair[]; against: AgainstScenario } {
  const thisVsRef: ScenarioPair = {
    id: `${scenario.id}-this-vs-ref`,
    title: `${scenario.title}, this tree vs the framework at ${ref}`,
    baseline: AT_REF,
    candidate: framework,
    cpu: true,
  };
  const twins = pairs
    .filter((pair) => pair.candidate === framework)
    .map((pair): ScenarioPair => ({
      id: `${pair.id}-at-ref`,
      title: `${pair.title} (the framework at ${ref})`,
      baseline: pair.baseline,
      candidate: AT_REF,
      cpu: pair.cpu,
    }));
  const baselines = pairs
    .filter((pair) => pair.candidate === framework)
    .map((pair) => ({ baseline: pair.baseline, thisTree: pair.id, atRef: `${pair.id}-at-ref` }));
  return {
    pairs: [...pairs, thisVsRef, ...twins],
    against: { id: scenario.id, title: scenario.title, thisVsRef: thisVsRef.id, baselines },
  };
}
