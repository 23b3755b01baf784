import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

export const PROJECT_ROOT = path.resolve(__dirname, '../..');

/** Variables the application reads; a child gets only the ones a test sets, never the runner's. */
const APP_VARIABLES =
  /^(NODE_ENV|PORT|HOST|STORE|MONGODB_URL|DATA_DIR|EMBEDDED_MAX_HEAP_MB|EMBEDDED_CHANGE_HISTORY_EVENTS|AUTH_SECRET|LOG_LEVEL|BODY_LIMIT_BYTES|DATABASE_TIMEOUT_MS|DATABASE_OPERATION_TIMEOUT_MS|CORS_ORIGINS|REDIS_URL|PASSWORD_HASH_[A-Z_]+|BCRYPT_COST|UV_THREADPOOL_SIZE|[A-Z0-9_]+_REMOTE_(URL|TOKEN))$/;

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** A TypeScript entry point running in its own Node process, with its output collected. */
export class ChildHandle {
  readonly exited: Promise<Exit>;
  private out = '';
  private err = '';
  private readonly waiters = new Set<() => void>();

  constructor(readonly process: ChildProcess) {
    process.stdout?.setEncoding('utf8').on('data', (chunk: string) => this.append('out', chunk));
    process.stderr?.setEncoding('utf8').on('data', (chunk: string) => this.append('err', chunk));
    this.exited = new Promise((resolve) => process.once('exit', (code, signal) => resolve({ code, signal })));
    void this.exited.then(() => this.notify());
  }

  get stdout(): string {
    return this.out;
  }

  get stderr(): string {
    return this.err;
  }

  get running(): boolean {
    return this.process.exitCode === null && this.process.signalCode === null;
  }

  /** Resolves with the first stdout match of `pattern`; rejects when the child exits first or after `timeoutMs`. */
  waitForOutput(pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const match = pattern.exec(this.out);
        if (match) return finish(() => resolve(match));
        if (!this.running)
          finish(() => reject(new Error(`child exited before printing ${pattern}:\n${this.out}\n${this.err}`)));
      };
      const timer = setTimeout(
        () => finish(() => reject(new Error(`no ${pattern} within ${timeoutMs} ms:\n${this.out}\n${this.err}`))),
        timeoutMs,
      );
      const finish = (settle: () => void) => {
        clearTimeout(timer);
        this.waiters.delete(check);
        settle();
      };
      this.waiters.add(check);
      check();
    });
  }

  /** Sends `signal` and waits for the exit; SIGKILL follows when the child outlives `timeoutMs`. */
  async stop(signal: NodeJS.Signals = 'SIGTERM', timeoutMs = 15_000): Promise<Exit> {
    if (!this.running) return this.exited;
    this.process.kill(signal);
    const timer = setTimeout(() => this.process.kill('SIGKILL'), timeoutMs);
    try {
      return await this.exited;
    } finally {
      clearTimeout(timer);
    }
  }

  private append(stream: 'out' | 'err', chunk: string): void {
    if (stream === 'out') this.out += chunk;
    else this.err += chunk;
    this.notify();
  }

  private notify(): void {
    for (const waiter of [...this.waiters]) waiter();
  }
}

const children = new Set<ChildHandle>();

/** Runs `node -r @swc-node/register <script> ...args` from the project root, or from `cwd` (a copy of it). */
export function spawnTs(
  script: string,
  args: string[],
  env: Record<string, string>,
  { cwd = PROJECT_ROOT }: { cwd?: string } = {},
): ChildHandle {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !APP_VARIABLES.test(name)));
  const child = spawn(process.execPath, ['-r', '@swc-node/register', script, ...args], {
    cwd,
    env: { ...inherited, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const handle = new ChildHandle(child);
  children.add(handle);
  void handle.exited.then(() => children.delete(handle));
  return handle;
}

/** Kills whatever a test file left running (call in afterAll). */
export async function killChildren(): Promise<void> {
  await Promise.all([...children].map((child) => child.stop('SIGKILL')));
}
