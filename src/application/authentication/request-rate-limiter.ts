import type { RequestLimit, RequestRateLimiterPort } from '../../ports/request-rate-limiter.port';

interface Window {
  count: number;
  endsAt: number;
}

/**
 * In-memory request limits for one process (browser-safe: no timers, no Node APIs): a fixed
 * window per action and client address, at most `maxEntries` windows kept (expired ones are
 * dropped first, then the oldest), so memory stays bounded.
 */
export class MemoryRequestRateLimiter implements RequestRateLimiterPort {
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly limits: Readonly<Record<string, RequestLimit>>,
    private readonly maxEntries = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  consume(action: string, client: string): number {
    const limit = limitOf(this.limits, action);
    const time = this.now();
    const key = `${action}:${client}`;
    let window = this.windows.get(key);
    if (!window || window.endsAt <= time) {
      window = { count: 0, endsAt: time + limit.windowMs };
      this.windows.delete(key);
      this.windows.set(key, window);
      this.prune(time);
    }
    if (window.count >= limit.max) return window.endsAt - time;
    window.count += 1;
    return 0;
  }

  private prune(time: number): void {
    if (this.windows.size <= this.maxEntries) return;
    for (const [key, window] of this.windows) if (window.endsAt <= time) this.windows.delete(key);
    for (const key of this.windows.keys()) {
      if (this.windows.size <= this.maxEntries) break;
      this.windows.delete(key);
    }
  }
}

/** The limit of `action`; a hook naming an action nobody configured is a programming error. */
export function limitOf(limits: Readonly<Record<string, RequestLimit>>, action: string): RequestLimit {
  const limit = Object.prototype.hasOwnProperty.call(limits, action) ? limits[action] : undefined;
  if (!limit) throw new Error(`No request limit is configured for "${action}"`);
  return limit;
}
