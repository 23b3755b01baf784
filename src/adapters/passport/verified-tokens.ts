/**
 * Access tokens this strategy verified lately, with what verifying them gave, so a client that
 * sends the same bearer token with every request costs one signature check rather than one per
 * request. Verifying a token depends only on the token, the strategy's key and options, and the
 * clock; of the time claims only `exp` can turn a valid token invalid later, so an entry answers
 * until the second the token expires, as the verifier would. Bounded: when full, the oldest entry
 * makes room; tokens longer than `maxTokenLength` are never kept.
 */
export class VerifiedTokens<T> {
  private readonly entries = new Map<string, { value: T; expiresAt: number }>();

  constructor(
    private readonly capacity = 1000,
    private readonly maxTokenLength = 4096,
  ) {}

  /** What `remember` kept for `token`, while the token has not expired (whole seconds, as jsonwebtoken counts). */
  get(token: string, nowSeconds = Math.floor(Date.now() / 1000)): T | undefined {
    const entry = this.entries.get(token);
    if (entry === undefined) return undefined;
    if (nowSeconds < entry.expiresAt) return entry.value;
    this.entries.delete(token);
    return undefined;
  }

  /** Keeps `value` for a token that just passed verification and expires at `expiresAt` (seconds since the epoch). */
  remember(token: string, expiresAt: number, value: T): void {
    if (this.capacity <= 0 || token.length > this.maxTokenLength || !Number.isFinite(expiresAt)) return;
    if (!this.entries.has(token) && this.entries.size >= this.capacity) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(token, { value, expiresAt });
  }
}
