import { Worker } from 'node:worker_threads';

/**
 * The worker's whole program: bcryptjs is pure JavaScript, so its compare would hold whatever
 * thread runs it for the full cost (about 60 ms at cost 10). Given as source with the module's
 * resolved path, so it runs the same from the TypeScript sources and from the build.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const bcrypt = require(workerData.bcryptjs);
parentPort.on('message', ({ password, hash }) => {
  let matches = false;
  try { matches = bcrypt.compareSync(password, hash) === true; } catch { matches = false; }
  parentPort.postMessage(matches);
});
`;

export interface BcryptVerifierPoolOptions {
  /** Workers at most (the hasher's concurrency cap: no more compares run at once). */
  size: number;
  /** An idle worker ends after this long; the next legacy hash starts one again. Default 60 s. */
  idleMs?: number;
}

/**
 * Verifies legacy bcrypt hashes in worker threads, off the event loop. Workers start on first use
 * (a deployment without bcrypt hashes never starts one), end when idle, and never keep the
 * process alive while they wait.
 */
export class BcryptVerifierPool {
  /** Workers started and not yet ended, busy or idle. */
  private readonly live = new Set<Worker>();
  private readonly idle: Worker[] = [];
  private readonly idleTimers = new Map<Worker, NodeJS.Timeout>();
  private readonly waiting: Array<(worker: Worker) => void> = [];
  private closed = false;

  constructor(private readonly options: BcryptVerifierPoolOptions) {}

  /** Workers running now (for tests and metrics). */
  get workers(): number {
    return this.live.size;
  }

  async compare(password: string, hash: string): Promise<boolean> {
    const worker = await this.acquire();
    let healthy = false;
    try {
      const matches = await this.run(worker, password, hash);
      healthy = true;
      return matches;
    } finally {
      if (healthy) this.release(worker);
      else this.replace(worker);
    }
  }

  /** Ends the idle workers now and the busy ones when their compare is done. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.idle.splice(0).map((worker) => this.end(worker)));
  }

  private acquire(): Promise<Worker> {
    if (this.closed) return Promise.reject(new Error('The bcrypt verifier is closed'));
    const worker = this.idle.pop();
    if (worker) {
      clearTimeout(this.idleTimers.get(worker));
      this.idleTimers.delete(worker);
      return Promise.resolve(worker);
    }
    if (this.live.size < this.options.size) return Promise.resolve(this.start());
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private start(): Worker {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { bcryptjs: require.resolve('bcryptjs') },
      resourceLimits: { maxOldGenerationSizeMb: 64 },
    });
    this.live.add(worker);
    // However it ends (idle timeout, close, crash), it is no longer offered.
    worker.once('exit', () => this.forget(worker));
    worker.unref();
    return worker;
  }

  private run(worker: Worker, password: string, hash: string): Promise<boolean> {
    return new Promise((resolve, reject) => {
      const settle = (action: () => void) => {
        worker.off('message', onMessage).off('error', onError).off('exit', onExit);
        worker.unref();
        action();
      };
      const onMessage = (matches: unknown) => settle(() => resolve(matches === true));
      const onError = (error: Error) => settle(() => reject(error));
      const onExit = (code: number) => settle(() => reject(new Error(`The bcrypt worker exited with code ${code}`)));
      worker.on('message', onMessage).on('error', onError).on('exit', onExit);
      // Referenced while it works, so a pending login keeps the process alive.
      worker.ref();
      worker.postMessage({ password, hash });
    });
  }

  private release(worker: Worker): void {
    if (!this.live.has(worker)) return this.replace(worker);
    const next = this.waiting.shift();
    if (next) return next(worker);
    if (this.closed) return void this.end(worker);
    this.idle.push(worker);
    const timer = setTimeout(() => void this.end(worker), this.options.idleMs ?? 60_000);
    timer.unref();
    this.idleTimers.set(worker, timer);
  }

  /** A worker that failed: it ends, and whoever waits gets a fresh one. */
  private replace(worker: Worker): void {
    void this.end(worker);
    const next = this.waiting.shift();
    if (next) next(this.start());
  }

  private async end(worker: Worker): Promise<void> {
    this.forget(worker);
    await worker.terminate().catch(() => undefined);
  }

  private forget(worker: Worker): void {
    this.live.delete(worker);
    clearTimeout(this.idleTimers.get(worker));
    this.idleTimers.delete(worker);
    const index = this.idle.indexOf(worker);
    if (index >= 0) this.idle.splice(index, 1);
  }
}
