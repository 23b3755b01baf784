import { MongoClient } from 'mongodb';
import type { EmbeddedMongo } from '../../../src/embedded-mongo';
import { startLoopbackServer } from './embedded-server';
import { BASE_CLIENT_OPTIONS } from './entities';
import { formatReport } from './report';
import { describeServer } from './requirements';
import { runCase, type CaseResult, type RunContext } from './run-case';
import { conformanceDir, loadSubsetCases, missingReason } from './unified-loader';
import { describeIf } from '../../helpers/skip-with-reason';

/**
 * Cases passing when last measured (the project aimed for 215); the 4 others are Node driver
 * deviations, see driver-deviations.ts.
 */
const FLOOR = 225;
const CASE_TIMEOUT_MS = 10_000;
/** CONFORMANCE_STRICT=1 fails each non-conforming case's own jest test too, for working through them. */
const STRICT = process.env.CONFORMANCE_STRICT === '1';

const dir = conformanceDir();
const missing = missingReason(dir);

describeIf(missing === undefined, `${missing} (set CONFORMANCE_DIR to the mongodb-crud folder)`)(
  'MongoDB CRUD unified conformance',
  () => {
    const cases = loadSubsetCases(dir);
    const results: CaseResult[] = [];
    let server: EmbeddedMongo | undefined;
    let internal: MongoClient | undefined;
    let ctx: RunContext;

    beforeAll(async () => {
      server = await startLoopbackServer();
      internal = new MongoClient(server.url, BASE_CLIENT_OPTIONS);
      await internal.connect();
      ctx = { url: server.url, internal, server: await describeServer(internal), timeoutMs: CASE_TIMEOUT_MS };
    }, 30_000);

    afterAll(async () => {
      await internal?.close(true);
      await server?.stop();
    });

    // Each case records its verdict; the floor below is what gates CI, so a server still being
    // built keeps the suite green while its gaps are listed in the report.
    for (const c of cases) {
      test(
        `${c.file} > ${c.description}`,
        async () => {
          const result = await runCase(c, ctx);
          results.push(result);
          if (!result.passed && STRICT) throw new Error(`[${result.stage}] ${result.reason}`);
        },
        CASE_TIMEOUT_MS + 5_000,
      );
    }

    test(`passes at least ${FLOOR}/${cases.length} subset cases`, () => {
      console.log(formatReport(results, cases.length));
      expect(results.filter((r) => r.passed).length).toBeGreaterThanOrEqual(FLOOR);
    });
  },
);
