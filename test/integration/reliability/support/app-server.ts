import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { composeApplication, listen, type ComposedApplication } from '../../../../src/composition-root';
import type { AuthenticationOptions } from '../../../../src/composition/modules/authentication.module';
import { loadConfig } from '../../../../src/composition/load-config';

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
 * The real composition in this process, listening on a free loopback port. Login rate limits
 * are off (tests log in often) and bcrypt is cheap, unless `authentication` says otherwise.
 */
export async function startApp(env: Record<string, string>, authentication: AuthenticationOptions = {}): Promise<RunningApp> {
  const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: ':memory:', AUTH_SECRET: TEST_SECRET, ...env });
  const composed = await composeApplication(config, { authentication: { bcryptCost: 4, rateLimit: false, ...authentication } });
  const server = await listen(composed.http, '127.0.0.1', 0);
  composed.realtime.attach(server);
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    composed,
    server,
    close: async () => {
      await composed.realtime.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await composed.close();
    },
  };
}
