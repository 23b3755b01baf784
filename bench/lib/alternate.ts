import type { Comparison, Target } from './results';
import { meets } from './results';
import { summarize } from './stats';

export interface AlternateOptions {
  id: string;
  title: string;
  baseline: { label: string; measure: () => Promise<number> };
  candidate: { label: string; measure: () => Promise<number> };
  unit: string;
  rounds: number;
  target?: Target;
  /** Printed after each round, e.g. to show progress. */
  log?: (line: string) => void;
}

/**
 * Measures baseline and candidate alternately, in ABBA order so that drift (thermal, JIT,
 * neighbours) falls evenly on both, and pairs each round's figures into a ratio.
 */
export async function alternate(options: AlternateOptions): Promise<Comparison> {
  const baselineValues: number[] = [];
  const candidateValues: number[] = [];
  const ratios: number[] = [];
  for (let round = 0; round < options.rounds; round++) {
    let baseline: number;
    let candidate: number;
    if (round % 2 === 0) {
      baseline = await options.baseline.measure();
      candidate = await options.candidate.measure();
    } else {
      candidate = await options.candidate.measure();
      baseline = await options.baseline.measure();
    }
    baselineValues.push(baseline);
    candidateValues.push(candidate);
    ratios.push(candidate / baseline);
    options.log?.(
      `  ${options.id} round ${round + 1}/${options.rounds}: ${options.baseline.label} ${format(baseline)} ${options.unit}, ` +
        `${options.candidate.label} ${format(candidate)} ${options.unit}, ratio ${(candidate / baseline).toFixed(3)}`,
    );
  }
  const ratio = summarize(ratios);
  return {
    id: options.id,
    title: options.title,
    baseline: options.baseline.label,
    candidate: options.candidate.label,
    unit: options.unit,
    ratio,
    baselineValue: summarize(baselineValues),
    candidateValue: summarize(candidateValues),
    target: options.target,
    met: meets(options.target, ratio.median),
  };
}

function format(value: number): string {
  return value >= 100 ? value.toFixed(0) : value.toPrecision(3);
}
