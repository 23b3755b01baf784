import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../../..');
const CLI = path.join(ROOT, 'src/embedded-mongo/cli.ts');
const START_TIMEOUT_MS = 20_000;

export interface ChildServer {
  readonly url: string;
  readonly child: ChildProcess;
  /** Everything the child printed so far (stdout and stderr). */
  output(): string;
  /** Power cut: SIGKILL, no chance to flush anything. */
  kill(): Promise<void>;
  /** Clean shutdown (SIGTERM). */
  stop(): Promise<void>;
}

/** Runs the CLI in a child process on 127.0.0.1, a free port and `dataDir`; resolves once it listens. */
export async function startChildServer(dataDir: string, extraArgs: string[] = []): Promise<ChildServer> {
  const args = [
    '-r',
    '@swc-node/register',
    CLI,
    '--bind_ip',
    '127.0.0.1',
    '--port',
    '0',
    '--dbpath',
    dataDir,
    ...extraArgs,
  ];
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = once(child, 'exit');
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`child server did not start in time:\n${output}`)), START_TIMEOUT_MS);
    const check = (): void => {
      const match = /mongodb:\/\/127\.0\.0\.1:\d+\//.exec(output);
      if (!match) return;
      clearTimeout(timer);
      resolve(match[0]);
    };
    function fail(error: Error): void {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(error);
    }
    child.stdout.on('data', check);
    void exited.then(() => fail(new Error(`child server exited before listening:\n${output}`)));
  });
  const terminate = async (signal: NodeJS.Signals): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  return { url, child, output: () => output, kill: () => terminate('SIGKILL'), stop: () => terminate('SIGTERM') };
}
