/**
 * Suites and tests that skip say why. Jest prints nothing of a file whose tests all skip (its
 * console output included), so the reason goes into the title of a skipped test, where
 * test/reporters/skip-reasons.reporter.cjs (listed in the jest configs) finds it and prints it
 * after the run. Every conditional suite uses these instead of `describe.skip` / `it.skip`:
 *
 *   describeIf(redisServerPath !== undefined, 'redis-server is missing (apt-get install -y redis-server)')(
 *     'scale-out',
 *     () => { ... },
 *   );
 *   itIf(library === 'axios', 'fetch has no per-call options to pass')(
 *     'passes params.connection',
 *     async () => { ... },
 *   );
 */

/** The title of a skipped test ends in `[skip reason: <reason>]`; the reporter reads it back. */
export function skipReasonTitle(name: string, reason: string): string {
  return `${name} [skip reason: ${reason}]`.trimStart();
}

type SuiteBody = () => void;
type TestBody = () => unknown;

/**
 * `describe` when `condition` holds. Otherwise the suite's body is not run at all (it may need
 * what is missing, even to list its tests): the suite holds one skipped test naming the reason.
 */
export function describeIf(condition: boolean, reason: string): (name: string, body: SuiteBody) => void {
  if (condition) return (name, body) => describe(name, body);
  return (name) => describe(name, () => it.skip(skipReasonTitle('', reason), () => undefined));
}

/** `it` when `condition` holds; otherwise the test is skipped with the reason in its title. */
export function itIf(condition: boolean, reason: string): (name: string, body: TestBody, timeout?: number) => void {
  if (condition) return (name, body, timeout) => it(name, body as jest.ProvidesCallback, timeout);
  return (name, body, timeout) => it.skip(skipReasonTitle(name, reason), body as jest.ProvidesCallback, timeout);
}
