import 'reflect-metadata';
import type { Server } from 'node:http';
import { listenHttp } from '../../src/adapters/http';
import { composeApplication, type ComposedApplication } from '../../src/composition-root';

type ComposeOptions = NonNullable<Parameters<typeof composeApplication>[1]>;
import type { AuthenticationOptions } from '../../src/composition/modules/authentication.module';
import { loadConfig } from '../../src/composition/load-config';

/** The JWT secret of every app these tests start, so they can forge tokens with it. */
export const TEST_SECRET = 'reliability-suite-secret-0123456789abcdef';

/** Both stores the suites run on: `describe.each(BOTH_STORES)('... on %s', (_store, env) => ...)`. */
export const BOTH_STORES: [string, Record<string, string>][] = [
  ['memory', { STORE: 'memory' }],
  ['mongo (embedded)', { STORE: 'mongo' }],
];

export interface RunningApp {
  readonly url: string;
  readonly composed: ComposedApplication;
  readonly server: Server;
  close(): Promise<void>;
}

/**
 * The real composition in this process, listening on a free loopback port. Login and sign-up
 * rate limits are off (tests log in and sign up often) and password hashing is cheap, unless
 * `authentication` says otherwise; `logger` replaces the composition's own.
 */
export async function startApp(
  env: Record<string, string>,
  authentication: AuthenticationOptions = {},
  logger?: ComposeOptions['logger'],
): Promise<RunningApp> {
  const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: ':memory:', AUTH_SECRET: TEST_SECRET, ...env });
  const composed = await composeApplication(config, {
    logger,
    authentication: { passwordHashCost: 10, rateLimit: false, signUpRateLimit: false, ...authentication },
  });
  const http = await listenHttp(composed.http);
  composed.realtime.attach(http.server);
  return {
    url: http.url,
    composed,
    server: http.server,
    close: async () => {
      await composed.realtime.close();
      await http.close();
      await composed.close();
    },
  };
}
