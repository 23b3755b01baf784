import { Unavailable } from '../../domain/errors';

export interface HashingLimiterOptions {
  /** Tasks running at once. */
  concurrency: number;
  /** Tasks waiting for a slot; one more is refused with 503 instead of growing the queue. */
  queueLimit: number;
}

/**
 * Runs password-hashing tasks at most `concurrency` at a time, in arrival order. The hashes run
 * on libuv's thread pool (shared with file and DNS work) or in worker threads: capping them keeps
 * threads free for everything else, and the bounded queue makes a login burst cost a 503, never
 * unbounded memory and waiting.
 */
export class HashingLimiter {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly options: HashingLimiterOptions) {
    const { concurrency, queueLimit } = options;
    if (!Number.isInteger(concurrency) || concurrency < 1) throw new Error(`The hashing concurrency must be a positive integer, got ${concurrency}`);
    if (!Number.isInteger(queueLimit) || queueLimit < 0) throw new Error(`The hashing queue limit must be a non-negative integer, got ${queueLimit}`);
  }

  /** Tasks running now and tasks waiting (for tests and metrics). */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    await this.acquire();
    try {
      return await task();
    } finally {
      this.release();
    }
  }

  private acquire(): Promise<void> {
    if (this.running < this.options.concurrency) {
      this.running++;
      return Promise.resolve();
    }
    if (this.waiting.length >= this.options.queueLimit) {
      return Promise.reject(new Unavailable('The server is busy checking passwords, try again shortly'));
    }
    // The slot is handed over by `release` (running stays counted), so no task can jump the queue.
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running--;
  }
}
