/**
 * `npm run bench [-- <suite> ...] [--quick] [--profile]`: runs the benchmarks with servers in
 * child processes pinned to one core and the load generator (this process) on another, prints
 * every figure as a ratio to a baseline measured alternately in the same run, and writes
 * bench/results/latest.json, bench/results/ratios.svg and the results part of bench/README.md.
 * With `--against <ref>` the framework at that commit runs beside this tree's, and the run
 * writes bench/results/against-<ref>.json instead.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import jwt from 'jsonwebtoken';
import { buildAgainstReport, renderAgainstReport, writeAgainstReport } from './lib/against-report';
import { prepareAgainstTree } from './lib/against-tree';
import type { BenchContext, Suite } from './lib/bench-context';
import { BENCH_DIR, bundleServers, RESULTS_DIR } from './lib/bundle-servers';
import { AGAINST_SERVER_OF_SUITE, parseCliOptions, type SuiteName } from './lib/cli-options';
import { setUpPinning } from './lib/cpu-pinning';
import { summarizeProfile } from './lib/profile-summary';
import type { ResultsFile, SuiteResult } from './lib/results';
import { takeRunLock } from './lib/run-lock';
import { killAllServers } from './lib/server-process';
import { BENCH_TOKEN_CLAIMS } from './servers/server-protocol';
import { renderResultsMarkdown, spliceResults } from './report/readme-results';
import { renderRatiosSvg } from './report/ratios-svg';
import { databaseSuite } from './suites/database.suite';
import { embeddedSuite } from './suites/embedded.suite';
import { httpSuite } from './suites/http.suite';
import { largeSuite } from './suites/large.suite';
import { memorySuite } from './suites/memory.suite';
import { realtimeSuite } from './suites/realtime.suite';
import { restClientSuite } from './suites/rest-client.suite';
import { scaleSuite } from './suites/scale.suite';
import { storeSuite } from './suites/store.suite';

const SUITES: Record<SuiteName, Suite> = {
  http: httpSuite,
  store: storeSuite,
  rest: restClientSuite,
  database: databaseSuite,
  scale: scaleSuite,
  memory: memorySuite,
  embedded: embeddedSuite,
  large: largeSuite,
  realtime: realtimeSuite,
};
const LATEST = path.join(RESULTS_DIR, 'latest.json');
const README = path.join(BENCH_DIR, 'README.md');

function loadPrevious(): ResultsFile | undefined {
  try {
    return JSON.parse(readFileSync(LATEST, 'utf8')) as ResultsFile;
  } catch {
    return undefined;
  }
}

function printSuite(result: SuiteResult): void {
  console.log(`\n== ${result.title}`);
  for (const c of result.comparisons) {
    const target = c.target ? `  target ${c.target.op} ${c.target.value}: ${c.met ? 'met' : 'MISSED'}` : '';
    console.log(
      `  ${c.title}: ratio ${c.ratio.median.toFixed(3)} [${c.ratio.min.toFixed(3)} – ${c.ratio.max.toFixed(3)}]` +
        ` (${c.baseline} ${c.baselineValue.median.toFixed(1)} ` +
        `vs ${c.candidate} ${c.candidateValue.median.toFixed(1)} ${c.unit})${target}`,
    );
  }
  for (const f of result.figures) {
    const target = f.target ? `  target ${f.target.op} ${f.target.value}: ${f.met ? 'met' : 'MISSED'}` : '';
    console.log(`  ${f.title}: ${f.value} ${f.unit}${f.detail ? ` (${f.detail})` : ''}${target}`);
  }
  for (const note of result.notes) console.log(`  note: ${note}`);
}

async function main(): Promise<void> {
  const options = parseCliOptions(process.argv.slice(2));
  const command = ['npm run bench', ...(process.argv.length > 2 ? ['--', ...process.argv.slice(2)] : [])].join(' ');
  const started = Date.now();
  mkdirSync(RESULTS_DIR, { recursive: true });
  takeRunLock();
  // Every run is bounded: a generous limit per suite, then the children are killed.
  const stretch =
    Math.max(1, options.duration / (options.quick ? 2 : 5)) * Math.max(1, options.rounds / (options.quick ? 3 : 5));
  // --against adds one server to every scenario (four to six before), and a checkout and a build.
  const limitMs = options.suites.length * (options.quick ? 8 : 25) * 60_000 * stretch * (options.against ? 1.5 : 1);
  setTimeout(() => {
    console.error(`bench: time limit of ${Math.round(limitMs / 60_000)} min reached, stopping`);
    killAllServers();
    process.exit(2);
  }, limitMs).unref();

  const pinning = setUpPinning();
  const secret = 'bench-secret-of-at-least-thirty-two-bytes!';
  const profileDir = options.profile ? path.join(RESULTS_DIR, 'profiles') : undefined;
  if (profileDir) mkdirSync(profileDir, { recursive: true });
  const againstServers = options.suites.map(
    (name) => AGAINST_SERVER_OF_SUITE[name as keyof typeof AGAINST_SERVER_OF_SUITE],
  );
  const against = options.against
    ? await prepareAgainstTree(options.against, againstServers, (line) => console.log(line))
    : undefined;
  for (const note of against?.notes ?? []) console.log(`bench: --against: ${note}`);
  const context: BenchContext = {
    quick: options.quick,
    rounds: options.rounds,
    duration: options.duration,
    warmup: options.quick ? 1 : 2,
    connections: options.connections,
    pinning,
    scripts: await bundleServers(),
    profileDir,
    only: options.only,
    against,
    secret,
    token: jwt.sign({}, secret, {
      algorithm: 'HS256',
      expiresIn: '2h',
      subject: BENCH_TOKEN_CLAIMS.subject,
      audience: BENCH_TOKEN_CLAIMS.audience,
      issuer: BENCH_TOKEN_CLAIMS.issuer,
      header: { alg: 'HS256', typ: BENCH_TOKEN_CLAIMS.typ },
    }),
    log: (line) => console.log(line),
  };
  console.log(
    `bench: ${options.suites.join(', ')}; ${options.rounds} rounds of ${options.duration} s, ${options.connections} ` +
      `connections; ${pinning.note}`,
  );

  const previous = loadPrevious();
  const results: ResultsFile = {
    command,
    updatedAt: new Date().toISOString(),
    environment: {
      node: process.version,
      cpu: os.cpus()[0]?.model.trim() ?? 'unknown',
      cores: os.cpus().length,
      pinning: pinning.note,
      load: `autocannon, ${options.connections} connections`,
    },
    suites: { ...previous?.suites },
  };
  const failures: string[] = [];
  const ran: SuiteResult[] = [];
  for (const name of options.suites) {
    console.log(`\n-- ${SUITES[name].title}`);
    try {
      const loadBefore = os.loadavg()[0];
      const result = await SUITES[name].run(context);
      result.command = command;
      result.notes.push(
        `machine load average (1 min) ${loadBefore.toFixed(1)} before and ${os.loadavg()[0].toFixed(1)} after the ` +
          `suite, on ${os.cpus().length} cores`,
      );
      results.suites[name] = result;
      ran.push(result);
      printSuite(result);
    } catch (error) {
      killAllServers();
      const message = error instanceof Error ? error.message : String(error);
      failures.push(`${name}: ${message}`);
      console.error(`bench: suite ${name} failed: ${message}`);
    }
  }

  // Suites keep their order of definition in the files, whatever order they ran in.
  results.suites = Object.fromEntries(
    Object.keys(SUITES)
      .filter((name) => results.suites[name])
      .map((name) => [name, results.suites[name]]),
  );
  // Partial (--only), profiled and --against runs are diagnostics: they must not replace the recorded figures.
  let written = LATEST;
  if (against) {
    const report = buildAgainstReport(against, ran, { command, environment: results.environment });
    console.log(renderAgainstReport(report));
    written = writeAgainstReport(report);
  }
  if (options.only || options.profile || against) {
    console.log(
      '\nbench: --only / --profile / --against run: results/latest.json, ratios.svg and README.md left as they were',
    );
  } else {
    writeFileSync(LATEST, `${JSON.stringify(results, null, 2)}\n`);
    writeFileSync(path.join(RESULTS_DIR, 'ratios.svg'), renderRatiosSvg(results));
    if (existsSync(README))
      writeFileSync(README, spliceResults(readFileSync(README, 'utf8'), renderResultsMarkdown(results)));
  }

  if (profileDir) {
    const fresh = (file: string) =>
      file.endsWith('.cpuprofile') && statSync(path.join(profileDir, file)).mtimeMs >= started;
    for (const file of readdirSync(profileDir).filter(fresh).sort()) {
      const summary = summarizeProfile(path.join(profileDir, file));
      writeFileSync(path.join(profileDir, file.replace(/\.cpuprofile$/, '.summary.txt')), `${summary}\n`);
    }
    console.log(`\nprofiles and their summaries: ${path.relative(process.cwd(), profileDir)}`);
  }
  // After the profile summaries, which read the other tree's source maps.
  against?.remove();
  console.log(
    `\nbench: done in ${((Date.now() - started) / 1000).toFixed(0)} s; results ` +
      `in ${path.relative(process.cwd(), written)}`,
  );
  if (failures.length > 0) {
    console.error(`bench: ${failures.length} suite(s) failed:\n  ${failures.join('\n  ')}`);
    process.exitCode = 1;
  }
}

// Exiting through process.exit runs the exit handlers: the run lock and an --against checkout go too.
process.on('SIGINT', () => {
  killAllServers();
  process.exit(130);
});
process.on('SIGTERM', () => {
  killAllServers();
  process.exit(143);
});

main().catch((error: unknown) => {
  killAllServers();
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
