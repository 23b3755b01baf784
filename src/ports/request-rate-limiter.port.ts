/** How many requests of one kind a client address may make in a window. */
export interface RequestLimit {
  max: number;
  windowMs: number;
}

/**
 * Counts requests of a kind (`action`: sign-up, password reset, ...) per client address in a
 * fixed window, each kind with its own limit. One process counts in memory; instances behind a
 * balancer share a store (Redis).
 */
export interface RequestRateLimiterPort {
  /**
   * Counts one `action` request from `client` (atomically): 0 when it may go on, else the
   * milliseconds until the window lets another one through (the window never moves, so a
   * refused request changes nothing). An action without a limit throws.
   */
  consume(action: string, client: string): number | Promise<number>;
}
