import { ServiceError, Timeout, Unavailable } from '../../domain/errors';
import { IDEMPOTENCY_HEADER } from '../../application/idempotency/idempotency-key';

/** Retries of calls that got no answer: off unless `attempts` is set. */
export interface RetryOptions {
  /** Further tries after the first (0: none). */
  attempts: number;
  /** Pause before the first retry, doubled before each next one. Default 100 ms. */
  delayMs?: number;
  /** Give every `create`, `patch` and custom method call its own Idempotency-Key, so they retry too. */
  idempotencyKeys?: boolean;
}

/** The longest pause between two tries, whatever the doubling reaches. */
const MAX_DELAY_MS = 5_000;
/** Methods HTTP defines as idempotent: repeating one does what doing it once does. */
const IDEMPOTENT_METHODS: ReadonlySet<string> = new Set(['GET', 'PUT', 'DELETE']);

/**
 * Whether a failed try may be made again: the server was unreachable, did not answer in time or
 * said it was unavailable (502, 503, 504), or is still running the first try of the same key
 * (409); and the request is safe to repeat, being idempotent by its method or carrying an
 * Idempotency-Key (so the server does it once, however many tries reach it).
 */
export function mayRetry(error: unknown, method: string, headers: Readonly<Record<string, string>>): boolean {
  if (!IDEMPOTENT_METHODS.has(method) && !carriesIdempotencyKey(headers)) return false;
  if (error instanceof Unavailable || error instanceof Timeout) return true;
  if (!(error instanceof ServiceError)) return false;
  if (error.code === 502 || error.code === 504) return true;
  return error.code === 409 && (error.data as { reason?: unknown } | undefined)?.reason === 'idempotency-key-in-use';
}

/** Whether the request names an Idempotency-Key (header names keep the case they were given in). */
export function carriesIdempotencyKey(headers: Readonly<Record<string, string>>): boolean {
  return Object.keys(headers).some((name) => name.toLowerCase() === IDEMPOTENCY_HEADER);
}

/** The pause before retry number `retry` (0 for the first). */
export function retryDelay(options: RetryOptions, retry: number): number {
  return Math.min((options.delayMs ?? 100) * 2 ** retry, MAX_DELAY_MS);
}

/** A fresh key for one call (`crypto.randomUUID`, in browsers and Node alike). */
export function newIdempotencyKey(): string {
  return `"${globalThis.crypto.randomUUID()}"`;
}
