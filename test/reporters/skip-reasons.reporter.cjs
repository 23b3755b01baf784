// @ts-check
/**
 * A jest reporter that lists, after the run, every skipped test with the reason
 * test/helpers/skip-with-reason.ts put in its title, and counts skipped tests that gave none.
 * Jest's default reporter shows nothing of a file whose tests all skip, console output included.
 * Plain CommonJS: jest loads reporters without transforming them.
 */
const path = require('node:path');

/** Keep in step with skipReasonTitle in test/helpers/skip-with-reason.ts: `<title> [skip reason: <reason>]`. */
const REASON_IN_TITLE = /^(.*?)\s*\[skip reason: (.*)\]$/s;

class SkipReasonsReporter {
  /** @param {{ rootDir: string; testNamePattern?: string }} globalConfig */
  constructor(globalConfig) {
    this.rootDir = globalConfig.rootDir;
    // With `-t`, every test not matching is pending too: those are not skips to explain.
    this.countUnexplained = !globalConfig.testNamePattern;
    /** @type {Map<string, { reasons: string[]; unexplained: number }>} */
    this.byFile = new Map();
  }

  /**
   * @param {unknown} _test
   * @param {{
   *   testFilePath: string;
   *   testResults: { status: string; title: string; ancestorTitles: string[] }[];
   * }} result
   */
  onTestResult(_test, result) {
    const reasons = [];
    let unexplained = 0;
    for (const test of result.testResults) {
      if (test.status !== 'pending') continue;
      const match = REASON_IN_TITLE.exec(test.title);
      if (match) reasons.push(`${[...test.ancestorTitles, match[1]].filter(Boolean).join(' > ')}: ${match[2]}`);
      else if (this.countUnexplained) unexplained++;
    }
    if (reasons.length > 0 || unexplained > 0)
      this.byFile.set(path.relative(this.rootDir, result.testFilePath), { reasons, unexplained });
  }

  onRunComplete() {
    if (this.byFile.size === 0) return;
    const lines = ['', 'Skipped, and why:'];
    for (const [file, { reasons, unexplained }] of [...this.byFile].sort(([a], [b]) => a.localeCompare(b))) {
      for (const reason of reasons) lines.push(`  ${file} > ${reason}`);
      if (unexplained > 0)
        lines.push(
          `  ${file}: ${unexplained} skipped without a reason (use describeIf ` +
            '/ itIf of test/helpers/skip-with-reason.ts)',
        );
    }
    process.stderr.write(`${lines.join('\n')}\n`);
  }
}

module.exports = SkipReasonsReporter;
