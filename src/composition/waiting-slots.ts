import { Unavailable } from '../domain/errors';

interface Waiter {
  grant(release: () => void): void;
  settled: boolean;
}

/**
 * At most `size` holders at once; the others wait in arrival order, each at most `timeoutMs`,
 * and then fail with `Unavailable`. A waiter whose caller gives up (its signal aborts) leaves
 * the queue at once.
 */
export class WaitingSlots {
  private busy = 0;
  private readonly queue: Waiter[] = [];

  constructor(
    readonly size: number,
    readonly timeoutMs: number,
  ) {}

  /** Resolves with the function that gives the slot back (calling it twice gives it back once). */
  acquire(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.busy < this.size) {
      this.busy++;
      return Promise.resolve(this.releaser());
    }
    return new Promise((resolve, reject) => {
      const leave = (error: unknown) => {
        waiter.settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        reject(error);
      };
      const onAbort = () => leave(signal!.reason);
      const waiter: Waiter = {
        settled: false,
        grant: (release) => {
          waiter.settled = true;
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          resolve(release);
        },
      };
      const timer = setTimeout(() => leave(new Unavailable(`No connection to the remote server came free within ${this.timeoutMs} ms (all ${this.size} in use)`)), this.timeoutMs);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(waiter);
    });
  }

  /** Holders and waiters now (for tests and diagnostics). */
  get usage(): { busy: number; waiting: number } {
    return { busy: this.busy, waiting: this.queue.filter((waiter) => !waiter.settled).length };
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
    this.busy--;
  }
}
