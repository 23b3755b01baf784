import type { Comparison, Target } from './results';
import { meets } from './results';
import { summarize } from './stats';

/** One side of a same-run comparison: something measured once per round. */
export interface Contender {
  label: string;
  measure: () => Promise<number>;
}

export interface AlternateOptions {
  id: string;
  title: string;
  baseline: Contender;
  candidate: Contender;
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
  const [baseline, candidate] = await alternateRounds(
    options.id,
    [options.baseline, options.candidate],
    options.rounds,
    options.unit,
    options.log,
  );
  return compareRounds({
    ...options,
    baseline: { label: options.baseline.label, values: baseline },
    candidate: { label: options.candidate.label, values: candidate },
  });
}

/**
 * Measures every contender once per round, in order on even rounds and in reverse order on odd
 * ones (A B C, C B A, A B C, ...): with two contenders this is ABBA, and with more each one's
 * average position in the run is the same, so drift falls evenly on all of them. Returns each
 * contender's figures, round by round, in the order given.
 */
export async function alternateRounds(
  id: string,
  contenders: Contender[],
  rounds: number,
  unit: string,
  log?: (line: string) => void,
): Promise<number[][]> {
  const values = contenders.map((): number[] => []);
  for (let round = 0; round < rounds; round++) {
    const order = contenders.map((_, index) => index);
    if (round % 2 === 1) order.reverse();
    for (const index of order) values[index].push(await contenders[index].measure());
    const ratio = contenders.length === 2 ? `, ratio ${(values[1][round] / values[0][round]).toFixed(3)}` : '';
    log?.(
      `  ${id} round ${round + 1}/${rounds}: ` +
        `${contenders.map((c, index) => `${c.label} ${format(values[index][round])}`).join(', ')} ${unit}${ratio}`,
    );
  }
  return values;
}

export interface RoundsComparison {
  id: string;
  title: string;
  baseline: { label: string; values: number[] };
  candidate: { label: string; values: number[] };
  unit: string;
  target?: Target;
}

/** Pairs the figures of two contenders measured in the same rounds into per-round ratios candidate / baseline. */
export function compareRounds(options: RoundsComparison): Comparison {
  const { baseline, candidate } = options;
  if (baseline.values.length !== candidate.values.length || baseline.values.length === 0) {
    throw new Error(`${options.id}: baseline and candidate need the same, non-zero number of rounds`);
  }
  const ratio = summarize(candidate.values.map((value, i) => value / baseline.values[i]));
  return {
    id: options.id,
    title: options.title,
    baseline: baseline.label,
    candidate: candidate.label,
    unit: options.unit,
    ratio,
    baselineValue: summarize(baseline.values),
    candidateValue: summarize(candidate.values),
    target: options.target,
    met: meets(options.target, ratio.median),
  };
}

function format(value: number): string {
  return value >= 100 ? value.toFixed(0) : value.toPrecision(3);
}
