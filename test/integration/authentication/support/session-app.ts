import type { AuthenticationOptions } from '../../../../src/composition/modules/authentication.module';
import { startApp, type RunningApp } from '../../../helpers/app-server';

export const SESSION_TEST_SECRET = 'sessions-suite-secret-0123456789abcdefgh';

/** Every line logged at any level, as written (bindings and message), to prove what never appears in one. */
export function recordingLogger() {
  const lines: string[] = [];
  const write = (obj: object | string, msg?: string) => void lines.push(JSON.stringify([obj, msg ?? null]));
  const logger = { lines, debug: write, info: write, warn: write, error: write, child: () => logger };
  return logger;
}

/** The real composition listening on a loopback port with sockets, its log recorded; rate limits off unless given. */
export async function startRecordedApp(
  env: Record<string, string>,
  authentication: AuthenticationOptions = {},
): Promise<RunningApp & { log: string[] }> {
  const logger = recordingLogger();
  const app = await startApp({ AUTH_SECRET: SESSION_TEST_SECRET, ...env }, authentication, logger);
  return { ...app, log: logger.lines };
}
