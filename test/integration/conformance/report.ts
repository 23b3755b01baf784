import { DRIVER_DEVIATIONS } from './driver-deviations';
import type { CaseResult } from './run-case';

/** The count line plus every failing case, grouped by the stage that failed, for the test log. */
export function formatReport(results: CaseResult[], total: number): string {
  const passed = results.filter((r) => r.passed).length;
  const lines = [`crud-conformance: ${passed}/${total} passed`];
  if (results.length < total) lines.push(`  (${total - results.length} case(s) did not run)`);
  const byStage = new Map<string, CaseResult[]>();
  for (const r of results.filter((x) => !x.passed)) {
    const stage = r.stage ?? 'unknown';
    byStage.set(stage, [...(byStage.get(stage) ?? []), r]);
  }
  for (const [stage, failures] of byStage) {
    lines.push(`  failing at ${stage} (${failures.length}):`);
    for (const f of failures) {
      const key = `${f.file} > ${f.description}`;
      const deviation = DRIVER_DEVIATIONS.get(key);
      lines.push(
        `    - ${key}: ${f.reason ?? ''}` +
          `${deviation ? `\n      (known driver deviation, not the server: ${deviation})` : ''}`,
      );
    }
  }
  return lines.join('\n');
}
