import type { Comparison, ResultsFile } from '../lib/results';

const WIDTH = 1000;
const LABEL_WIDTH = 470;
const VALUE_WIDTH = 90;
const CHART_LEFT = LABEL_WIDTH;
const CHART_WIDTH = WIDTH - LABEL_WIDTH - VALUE_WIDTH - 20;
const ROW = 26;
const HEADING = 30;
const TOP = 56;

const COLORS = {
  met: '#2e8b57',
  missed: '#c0392b',
  none: '#7f8c8d',
  target: '#1f3a93',
  grid: '#dddddd',
  one: '#555555',
};

function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/**
 * A horizontal bar chart of every comparison's median ratio, with a min-max whisker for the
 * spread of the rounds and the target as a dashed line; green when the target is met, red when
 * missed, grey when the comparison has no target. Plain SVG, no library.
 */
export function renderRatiosSvg(results: ResultsFile): string {
  const suites = Object.values(results.suites);
  const all: Comparison[] = suites.flatMap((suite) => suite.comparisons);
  const highest = Math.max(1.5, ...all.map((c) => Math.max(c.ratio.max, c.target?.value ?? 0)));
  const xMax = Math.ceil((highest * 1.08) / 0.5) * 0.5;
  const x = (value: number) => CHART_LEFT + (Math.min(value, xMax) / xMax) * CHART_WIDTH;

  const body: string[] = [];
  let y = TOP;
  for (const suite of suites) {
    if (suite.comparisons.length === 0) continue;
    body.push(`<text x="8" y="${y + 19}" font-weight="bold">${escape(suite.title)}</text>`);
    y += HEADING;
    for (const c of suite.comparisons) {
      const color = c.met === undefined ? COLORS.none : c.met ? COLORS.met : COLORS.missed;
      const mid = y + ROW / 2;
      body.push(`<text x="16" y="${mid + 4}">${escape(c.title)}</text>`);
      body.push(
        `<rect x="${CHART_LEFT}" y="${y + 5}" width="${(x(c.ratio.median) - CHART_LEFT).toFixed(1)}" ` +
          `height="${ROW - 10}" fill="${color}" opacity="0.85"/>`,
      );
      body.push(
        `<line x1="${x(c.ratio.min).toFixed(1)}" x2="${x(c.ratio.max).toFixed(1)}" y1="${mid}" y2="${mid}" ` +
          `stroke="#222" stroke-width="1.5"/>`,
      );
      for (const end of [c.ratio.min, c.ratio.max]) {
        body.push(
          `<line x1="${x(end).toFixed(1)}" x2="${x(end).toFixed(1)}" y1="${mid - 5}" y2="${mid + 5}" stroke="#222" ` +
            `stroke-width="1.5"/>`,
        );
      }
      if (c.target) {
        const tx = x(c.target.value).toFixed(1);
        body.push(
          `<line x1="${tx}" x2="${tx}" y1="${y + 1}" y2="${y + ROW - 1}" stroke="${COLORS.target}" ` +
            `stroke-width="2.5" stroke-dasharray="4 2">` +
            `<title>${escape(`target ${c.target.op} ${c.target.value}`)}</title></line>`,
        );
      }
      const targetText = c.target ? ` (${c.target.op} ${c.target.value})` : '';
      body.push(
        `<text x="${WIDTH - VALUE_WIDTH - 12}" ` +
          `y="${mid + 4}">${c.ratio.median.toFixed(2)}x${escape(targetText)}</text>`,
      );
      y += ROW;
    }
  }
  const height = y + 30;

  const grid: string[] = [];
  for (let tick = 0; tick <= xMax + 1e-9; tick += xMax > 3 ? 0.5 : 0.25) {
    const tx = x(tick).toFixed(1);
    grid.push(
      `<line x1="${tx}" x2="${tx}" y1="${TOP - 6}" y2="${y}" stroke="${tick === 1 ? COLORS.one : COLORS.grid}" ` +
        `stroke-width="${tick === 1 ? 1.5 : 1}"/>`,
    );
    grid.push(
      `<text x="${tx}" y="${y + 16}" text-anchor="middle" fill="#555">${tick.toFixed(2).replace(/0$/, '')}</text>`,
    );
  }

  const legend =
    `<rect x="8" y="30" width="12" height="12" fill="${COLORS.met}"/><text x="24" y="40">target met</text>` +
    `<rect x="110" y="30" width="12" height="12" fill="${COLORS.missed}"/><text x="126" y="40">target missed</text>` +
    `<rect x="230" y="30" width="12" height="12" fill="${COLORS.none}"/><text x="246" y="40">no target</text>` +
    `<line x1="330" x2="330" y1="28" y2="44" stroke="${COLORS.target}" stroke-width="2.5" stroke-dasharray="4 2"/>` +
    `<text x="338" y="40">target</text>` +
    `<line x1="400" x2="440" y1="36" y2="36" stroke="#222" stroke-width="1.5"/><text x="446" y="40">min-max of the ` +
    `rounds; bar = median ratio (candidate / baseline)</text>`;

  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" ` +
      `font-family="sans-serif" font-size="12">`,
    `<rect width="100%" height="100%" fill="#ffffff"/>`,
    `<text x="8" y="18" font-size="14" font-weight="bold">Benchmark ratios ` +
      `(${escape(results.updatedAt.slice(0, 16).replace('T', ' '))} UTC)</text>`,
    legend,
    ...grid,
    ...body,
    '</svg>',
    '',
  ].join('\n');
}
