import { randomBytes } from 'node:crypto';
import { Long, type Document } from 'bson';
import { CommandError } from './base/command-error';
import { streamOf, type ResultStream } from './query/result-stream';
import { BatchReader } from './query/take-batch';

/** What mongod uses when the client gives no batchSize for the first batch. */
const DEFAULT_FIRST_BATCH = 101;
const DEFAULT_IDLE_TIMEOUT_MS = 10 * 60 * 1000;

/** What a cursor reads its batches from: a query's result, or a change stream. */
export interface CursorSource {
  take(maxCount: number): Document[];
  readonly exhausted: boolean;
  /** A change stream's place after the batch just taken (sent with every batch). */
  readonly postBatchResumeToken?: Document;
  /** Tailable, awaitData: an empty batch means "nothing yet", and getMore may wait for more. */
  readonly awaitData?: boolean;
}

interface OpenCursor {
  readonly namespace: string;
  readonly reader: CursorSource;
  lastUsed: number;
}

export interface BatchResult {
  readonly id: Long;
  readonly batch: Document[];
  readonly postBatchResumeToken?: Document;
}

export interface BatchOptions {
  readonly batchSize?: number;
  readonly singleBatch?: boolean;
}

/**
 * Server-side cursors. A cursor keeps its place in the query's walk (a result stream), not a copy
 * of the result, so memory follows the batches handed out rather than the collection. Ids are
 * random positive int64 values (the driver rejects a cursor id that is not an Int64); idle
 * cursors are reaped after a timeout.
 */
export class CursorRegistry {
  private readonly cursors = new Map<string, OpenCursor>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly idleTimeoutMs = DEFAULT_IDLE_TIMEOUT_MS) {
    this.sweeper = setInterval(() => this.reapIdle(), Math.min(idleTimeoutMs, 60_000));
    this.sweeper.unref();
  }

  get openCount(): number {
    return this.cursors.size;
  }

  /** Returns the first batch and registers a cursor for the rest, if there is any rest. */
  open(namespace: string, results: ResultStream | readonly Document[], options: BatchOptions = {}): BatchResult {
    const maxCount = options.batchSize ?? DEFAULT_FIRST_BATCH;
    const reader = new BatchReader(Array.isArray(results) ? streamOf(results) : (results as ResultStream));
    const batch = maxCount === 0 ? [] : reader.take(maxCount);
    if (options.singleBatch || reader.exhausted) return { id: Long.ZERO, batch };
    const id = this.newId();
    this.cursors.set(id.toString(), { namespace, reader, lastUsed: Date.now() });
    return { id, batch };
  }

  /** A change stream's cursor: registered even when the first batch is empty, until the stream ends. */
  openStream(namespace: string, stream: CursorSource, batchSize?: number): BatchResult {
    const batch = batchSize === 0 ? [] : stream.take(batchSize ?? DEFAULT_FIRST_BATCH);
    const postBatchResumeToken = stream.postBatchResumeToken;
    if (stream.exhausted) return { id: Long.ZERO, batch, postBatchResumeToken };
    const id = this.newId();
    this.cursors.set(id.toString(), { namespace, reader: stream, lastUsed: Date.now() });
    return { id, batch, postBatchResumeToken };
  }

  /** Whether getMore on this cursor may wait for data (a live change stream). */
  awaitsData(id: Long): boolean {
    return this.cursors.get(id.toString())?.reader.awaitData === true;
  }

  getMore(id: Long, namespace: string, batchSize?: number): BatchResult {
    const key = id.toString();
    const cursor = this.cursors.get(key);
    if (!cursor) throw new CommandError('CursorNotFound', `cursor id ${key} not found`);
    if (cursor.namespace !== namespace) {
      throw new CommandError('Unauthorized', `cursor ${key} belongs to ${cursor.namespace}, not ${namespace}`);
    }
    cursor.lastUsed = Date.now();
    try {
      const batch = cursor.reader.take(batchSize && batchSize > 0 ? batchSize : Infinity);
      const postBatchResumeToken = cursor.reader.postBatchResumeToken;
      if (!cursor.reader.exhausted) return { id, batch, postBatchResumeToken };
      this.cursors.delete(key);
      return { id: Long.ZERO, batch, postBatchResumeToken };
    } catch (error) {
      // A walk that failed cannot resume: the cursor dies with the error, as in mongod.
      this.cursors.delete(key);
      throw error;
    }
  }

  /** Returns true when the cursor existed. */
  kill(id: Long): boolean {
    return this.cursors.delete(id.toString());
  }

  close(): void {
    clearInterval(this.sweeper);
    this.cursors.clear();
  }

  reapIdle(now = Date.now()): void {
    for (const [key, cursor] of this.cursors) {
      if (now - cursor.lastUsed > this.idleTimeoutMs) this.cursors.delete(key);
    }
  }

  private newId(): Long {
    // 62 random bits: positive, never 0, and not guessable across connections.
    const id = Long.fromBytesLE([...randomBytes(8)]).and(Long.fromString('3fffffffffffffff', 16));
    return id.isZero() ? this.newId() : id;
  }
}
