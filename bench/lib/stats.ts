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

/** The least-squares line through the points (x, y): its slope and its value at `at`. */
export function linearTrend(points: Array<{ x: number; y: number }>, at: number): { slope: number; valueAt: number } {
  const n = points.length;
  const meanX = points.reduce((sum, p) => sum + p.x, 0) / n;
  const meanY = points.reduce((sum, p) => sum + p.y, 0) / n;
  const sxx = points.reduce((sum, p) => sum + (p.x - meanX) ** 2, 0);
  const sxy = points.reduce((sum, p) => sum + (p.x - meanX) * (p.y - meanY), 0);
  const slope = sxx === 0 ? 0 : sxy / sxx;
  return { slope, valueAt: meanY + slope * (at - meanX) };
}
