import type { Comparison, Figure, ResultsFile, SuiteResult } from '../lib/results';

export const RESULTS_START = '<!-- results:start -->';
export const RESULTS_END = '<!-- results:end -->';

function number(value: number, unit = ''): string {
  if (!Number.isFinite(value)) return 'n/a';
  const text =
    Math.abs(value) >= 100 ? value.toFixed(0) : Math.abs(value) >= 10 ? value.toFixed(1) : value.toPrecision(3);
  return unit ? `${text} ${unit}` : text;
}

function verdict(met: boolean | undefined): string {
  return met === undefined ? '' : met ? 'met' : '**missed**';
}

function comparisonRow(c: Comparison): string {
  const target = c.target ? `${c.target.op} ${c.target.value}` : '';
  return (
    `| ${c.title} | **${c.ratio.median.toFixed(3)}** | ${c.ratio.min.toFixed(3)} – ${c.ratio.max.toFixed(3)} ` +
    `(${c.ratio.spreadPct.toFixed(1)} %) ` +
    `| ${c.baseline}: ${number(c.baselineValue.median, c.unit)} (±${(c.baselineValue.spreadPct / 2).toFixed(1)} %) ` +
    `| ${c.candidate}: ${number(c.candidateValue.median, c.unit)} (±${(c.candidateValue.spreadPct / 2).toFixed(1)} ` +
    `%) | ${target} | ${verdict(c.met)} |`
  );
}

function figureRow(f: Figure): string {
  const target = f.target ? `${f.target.op} ${f.target.value} ${f.unit}` : '';
  return (
    `| ${f.title} | ${number(f.value, f.unit)}${f.detail ? ` (${f.detail})` : ''} | ${target} ` +
    `| ${verdict(f.met)} |`
  );
}

function suiteSection(suite: SuiteResult): string {
  const lines = [
    `### ${suite.title}`,
    '',
    `\`${suite.command ?? 'npm run bench'}\` — ${suite.ranAt.slice(0, 19).replace('T', ' ')} ` +
      `UTC${suite.quick ? ' (quick)' : ''}`,
    '',
  ];
  if (suite.comparisons.length > 0) {
    const rounds = suite.comparisons[0].ratio.samples.length;
    lines.push(
      `| benchmark (${rounds} alternating rounds) | ratio (median) | ratio min – max (spread) | baseline (median) ` +
        `| candidate (median) | target | |`,
      '|---|---|---|---|---|---|---|',
      ...suite.comparisons.map(comparisonRow),
      '',
    );
  }
  if (suite.figures.length > 0) {
    lines.push('| figure | value | target | |', '|---|---|---|---|', ...suite.figures.map(figureRow), '');
  }
  for (const note of suite.notes) lines.push(`- ${note}`);
  if (suite.notes.length > 0) lines.push('');
  return lines.join('\n');
}

/** The generated part of bench/README.md: environment, then one section per suite. */
export function renderResultsMarkdown(results: ResultsFile): string {
  const environment = Object.entries(results.environment)
    .map(([key, value]) => `${key}: ${value}`)
    .join('; ');
  return [
    RESULTS_START,
    '',
    `Latest figures (written by \`bench/run.ts\`; raw data in [results/latest.json](results/latest.json)). ` +
      `Environment: ${environment}.`,
    '',
    '![ratios](results/ratios.svg)',
    '',
    ...Object.values(results.suites).map(suiteSection),
    RESULTS_END,
  ].join('\n');
}

/** Replaces the generated part of the README, or appends it when the markers are absent. */
export function spliceResults(readme: string, generated: string): string {
  const start = readme.indexOf(RESULTS_START);
  const end = readme.indexOf(RESULTS_END);
  if (start === -1 || end === -1) return `${readme.trimEnd()}\n\n${generated}\n`;
  return `${readme.slice(0, start)}${generated}${readme.slice(end + RESULTS_END.length)}`;
}
