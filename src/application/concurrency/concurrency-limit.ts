/** Why a caller did not get a slot. */
export type Refusal = 'queue-full' | 'timed-out';

export interface ConcurrencyLimitOptions {
  /** Holders at once. */
  size: number;
  /** Callers that may wait for a slot; one more is refused at once. Default: no bound. */
  maxWaiting?: number;
  /** How long one caller waits at most before it is refused. Default: no bound. */
  waitTimeoutMs?: number;
  /** The error a refused caller gets. */
  refusal(reason: Refusal): Error;
}

interface Waiter {
  grant(release: () => void): void;
  settled: boolean;
}

/**
 * At most `size` holders at once; the others wait in arrival order, refused past `maxWaiting`
 * waiters or after `waitTimeoutMs`, so a burst costs an error rather than unbounded memory and
 * waiting. A slot given back goes straight to the longest waiter (it stays counted), so nobody
 * jumps the queue; a waiter whose caller gives up (its signal aborts) leaves at once.
 */
export class ConcurrencyLimit {
  private running = 0;
  private waiting = 0;
  private readonly queue: Waiter[] = [];

  constructor(private readonly options: ConcurrencyLimitOptions) {
    const { size, maxWaiting } = options;
    if (!Number.isInteger(size) || size < 1)
      throw new Error(`The concurrency of a limit must be a positive integer, got ${size}`);
    if (maxWaiting !== undefined && (!Number.isInteger(maxWaiting) || maxWaiting < 0))
      throw new Error(`The queue limit must be a non-negative integer, got ${maxWaiting}`);
  }

  /** Holders and waiters now (for tests and diagnostics). */
  get usage(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting };
  }

  /** Runs `task` in a slot, given back however the task ends. */
  async run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const release = await this.acquire(signal);
    try {
      return await task();
    } finally {
      release();
    }
  }

  /** Resolves with the function that gives the slot back (calling it twice gives it back once). */
  acquire(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.running < this.options.size) {
      this.running++;
      return Promise.resolve(this.releaser());
    }
    if (this.waiting >= (this.options.maxWaiting ?? Infinity))
      return Promise.reject(this.options.refusal('queue-full'));
    this.waiting++;
    return new Promise((resolve, reject) => {
      const settle = () => {
        this.waiting--;
        waiter.settled = true;
        if (timer !== undefined) clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      const onAbort = () => {
        settle();
        reject(signal!.reason);
      };
      const waiter: Waiter = {
        settled: false,
        grant: (release) => {
          settle();
          resolve(release);
        },
      };
      const { waitTimeoutMs } = this.options;
      const timer =
        waitTimeoutMs === undefined
          ? undefined
          : setTimeout(() => {
              settle();
              reject(this.options.refusal('timed-out'));
            }, waitTimeoutMs);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(waiter);
    });
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.handOn();
    };
  }

  /** The slot goes to the longest-waiting caller still waiting, else back to the free ones. */
  private handOn(): void {
    for (let waiter = this.queue.shift(); waiter; waiter = this.queue.shift()) {
      if (waiter.settled) continue;
      waiter.grant(this.releaser());
      return;
    }
    this.running--;
  }
}
