import { spawnTs, type ChildHandle } from './child-process';
import { TEST_SECRET } from './app-server';

export interface MainProcess {
  readonly child: ChildHandle;
  readonly url: string;
}

/** `src/main.ts` in a child on a free port (PORT=0); resolves with the URL from its "listening" log line. */
export async function startMainProcess(env: Record<string, string>): Promise<MainProcess> {
  const child = spawnTs('src/main.ts', [], {
    NODE_ENV: 'development',
    PORT: '0',
    LOG_LEVEL: 'info',
    AUTH_SECRET: TEST_SECRET,
    ...env,
  });
  const [, url] = await child.waitForOutput(/"msg":"listening on (http:\/\/[^"]+)"/, 30_000);
  return { child, url };
}
