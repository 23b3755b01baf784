import { spawn, spawnSync } from 'node:child_process';
import { describeIf } from './skip-with-reason';
import { ChildHandle } from './child-process';
import { freePort } from './free-port';

/** Why Redis tests cannot run here, or undefined when `redis-server` is installed. */
export function redisUnavailableReason(): string | undefined {
  const probe = spawnSync('redis-server', ['--version'], { encoding: 'utf8' });
  return probe.error || probe.status !== 0
    ? 'redis-server is not installed (Debian package redis-server; .ci/run installs it)'
    : undefined;
}

/** A suite that needs redis-server: where it is missing, skipped with the reason printed after the run. */
export function describeWithRedis(name: string, body: () => void): void {
  const reason = redisUnavailableReason();
  describeIf(reason === undefined, reason ?? '')(name, body);
}

export interface RedisProcess {
  readonly port: number;
  readonly url: string;
  /** Stops the server (SIGKILL: an outage, not a clean shutdown). */
  kill(): Promise<void>;
  /** Starts it again on the same port. */
  restart(): Promise<void>;
}

/**
 * A throwaway redis-server on a free loopback port; no persistence unless `dataDir` is given
 * (then an append-only file written on every command there, which a restart reads back).
 */
export async function startRedis(dataDir?: string): Promise<RedisProcess> {
  const port = await freePort();
  let child: ChildHandle | undefined;
  const persistence = dataDir
    ? ['--dir', dataDir, '--appendonly', 'yes', '--appendfsync', 'always']
    : ['--appendonly', 'no'];
  const start = async () => {
    child = new ChildHandle(
      spawn(
        'redis-server',
        ['--port', String(port), '--bind', '127.0.0.1', '--save', '', ...persistence, '--protected-mode', 'no'],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      ),
    );
    await child.waitForOutput(/Ready to accept connections/, 10_000);
  };
  await start();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    kill: async () => {
      await child?.stop('SIGKILL', 5_000);
    },
    restart: start,
  };
}
