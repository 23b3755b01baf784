/** Median, extremes and relative spread of a few repeated measurements. */
export interface Summary {
  median: number;
  min: number;
  max: number;
  /** (max - min) / median, in percent: how far apart the repetitions landed. */
  spreadPct: number;
  samples: number[];
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

export function summarize(values: number[]): Summary {
  if (values.length === 0) throw new Error('summarize needs at least one value');
  const m = median(values);
  const min = Math.min(...values);
  const max = Math.max(...values);
  return { median: m, min, max, spreadPct: m === 0 ? 0 : ((max - min) / m) * 100, samples: values };
}

export function round(value: number, digits = 3): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
