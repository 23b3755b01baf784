import { Conflict, NotFound } from '../../domain/errors';
import { copyWith } from '../../domain/plain-record';
import type { ServiceMethods } from '../../ports/service.port';
import { canonicalRequest, type RequestToFingerprint } from './request-fingerprint';

/** How long a call may hold its key before another may take it over (its process may have died). */
const LEASE_MS = 60_000;
/** Expired records are swept at most this often (MongoDB's TTL index sweeps them too). */
const SWEEP_INTERVAL_MS = 60_000;

/** One key of one caller: the request it was first used with, and the answer once there is one. */
interface IdempotencyRecord {
  /** The caller's scope and the key: a key never names another caller's request. */
  _id: string;
  fingerprint: string;
  state: 'running' | 'done';
  /** Until when a running call holds the key (milliseconds since the epoch). */
  leaseUntil: number;
  expiresAt: Date;
  /** The answer as its caller received it (JSON), for every repetition. */
  answer?: string;
}

/**
 * What a call with a key finds: the key is its to run, another call runs it, it was answered, or it names another
 * request.
 */
export type Claim =
  | { readonly state: 'claimed' }
  | { readonly state: 'running' }
  | { readonly state: 'done'; readonly answer: unknown }
  | { readonly state: 'mismatch' };

/**
 * The records of idempotency keys (stored as the internal service below is, in `STORE`: MongoDB
 * with a TTL index, so every instance sees every key; or this process's memory). Claiming a key
 * is one atomic create (or a conditional takeover of an expired record or an abandoned claim), so
 * concurrent first calls run once.
 */
export class IdempotencyRecords {
  private lastSweep = 0;

  /**
   * `digest`: a cryptographic hash of a text (the composition's, since this layer also runs in
   * browsers), which makes a request's fingerprint.
   */
  constructor(
    private readonly store: ServiceMethods,
    private readonly ttlMs: number,
    private readonly digest: (text: string) => string,
    private readonly now: () => number = Date.now,
  ) {}

  /** What makes two calls the same request for one key. */
  fingerprintOf(call: RequestToFingerprint): string {
    return this.digest(canonicalRequest(call));
  }

  async claim(scope: string, fingerprint: string, attempts = 3): Promise<Claim> {
    await this.sweep();
    const now = this.now();
    const fresh: IdempotencyRecord = {
      _id: scope,
      fingerprint,
      state: 'running',
      leaseUntil: now + LEASE_MS,
      expiresAt: new Date(now + this.ttlMs),
    };
    try {
      await this.store.create!(fresh, {});
      return { state: 'claimed' };
    } catch (error) {
      if (!(error instanceof Conflict)) throw error;
    }
    const known = await this.find(scope);
    // Gone between the two steps (released, or swept): claim it afresh, a bounded number of times.
    if (!known) return attempts > 1 ? this.claim(scope, fingerprint, attempts - 1) : { state: 'running' };
    const expired = known.expiresAt.getTime() <= now;
    const abandoned = known.state === 'running' && known.leaseUntil <= now;
    if (expired || abandoned) return (await this.takeOver(fresh, known)) ? { state: 'claimed' } : { state: 'running' };
    if (known.fingerprint !== fingerprint) return { state: 'mismatch' };
    return known.state === 'done'
      ? { state: 'done', answer: JSON.parse(known.answer ?? 'null') }
      : { state: 'running' };
  }

  /** The call ran: its answer is what every repetition of the request gets, until the key expires. */
  async complete(scope: string, answer: unknown): Promise<void> {
    await this.store.patch!(
      scope,
      { state: 'done', answer: JSON.stringify(answer ?? null), expiresAt: new Date(this.now() + this.ttlMs) },
      {},
    );
  }

  /** The call failed: the key is free again, so that the request can be tried once more. */
  async release(scope: string): Promise<void> {
    await this.store.remove!(scope, { query: { state: 'running' } }).catch((error: unknown) => {
      if (!(error instanceof NotFound)) throw error;
    });
  }

  private async find(scope: string): Promise<IdempotencyRecord | undefined> {
    try {
      const record = (await this.store.get!(scope, {})) as IdempotencyRecord;
      return copyWith(record, { expiresAt: new Date(record.expiresAt) });
    } catch (error) {
      if (error instanceof NotFound) return undefined;
      throw error;
    }
  }

  /** Replaces a record still as it was read: of two calls taking it over at once, one wins. */
  private async takeOver(fresh: IdempotencyRecord, known: IdempotencyRecord): Promise<boolean> {
    const { _id, ...claim } = fresh;
    try {
      await this.store.patch!(_id, copyWith(claim, { answer: null }), {
        query: { state: known.state, leaseUntil: known.leaseUntil },
      });
      return true;
    } catch (error) {
      if (error instanceof NotFound) return false;
      throw error;
    }
  }

  private async sweep(): Promise<void> {
    const now = this.now();
    if (now - this.lastSweep < SWEEP_INTERVAL_MS) return;
    this.lastSweep = now;
    await this.store.remove!(null, { query: { expiresAt: { $lt: new Date(now) } } });
  }
}
