/** What happens to a call frame: it runs, it is refused with a 429, or the connection is flooding. */
export type Admission = 'run' | 'refuse' | 'flooding';

export interface CallLimits {
  /** Calls of one connection running at once. */
  maxCallsInFlight: number;
  /** Refusals one connection may collect within `refusalWindowMs` before it counts as flooding. */
  maxRefusedCalls: number;
  refusalWindowMs: number;
}

/**
 * The calls one connection has running, and the refusals it collected lately. A client over the
 * limit gets a 429 per extra call, so a burst that is a little too large is answered; one that
 * goes on sending regardless (each refusal still costs the server a frame and an ack) is flooding.
 */
export class CallBudget {
  private running = 0;
  private refused = 0;
  private windowStartedAt = 0;

  constructor(
    private readonly limits: CallLimits,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts a call as running when it may run; `settle()` once it has its answer. */
  admit(): Admission {
    if (this.running < this.limits.maxCallsInFlight) {
      this.running++;
      return 'run';
    }
    const now = this.now();
    if (now - this.windowStartedAt > this.limits.refusalWindowMs) {
      this.windowStartedAt = now;
      this.refused = 0;
    }
    this.refused++;
    return this.refused > this.limits.maxRefusedCalls ? 'flooding' : 'refuse';
  }

  settle(): void {
    if (this.running > 0) this.running--;
  }

  /** Refusals in the current window (for the log line of a flooding connection). */
  get refusedInWindow(): number {
    return this.refused;
  }
}
