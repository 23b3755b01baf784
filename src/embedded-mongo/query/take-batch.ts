import { BSON, type Document } from 'bson';
import { MAX_BSON_OBJECT_SIZE } from '../wire/wire-constants';
import type { ResultStream } from './result-stream';

/** Room left for the reply envelope (`cursor`, `ns`, `id`, `ok`) inside a 16 MiB reply. */
const ENVELOPE_RESERVE = 16 * 1024;
export const MAX_BATCH_BYTES = MAX_BSON_OBJECT_SIZE - ENVELOPE_RESERVE;
/** How many documents are pulled from the stream at once when a batch has no count limit. */
const PULL_SIZE = 256;

/**
 * Cuts a result stream into batches: at most `maxCount` documents and at most MAX_BATCH_BYTES of
 * BSON, but always at least one document so a cursor always progresses. A document that did not
 * fit waits for the next batch; `exhausted` asks the stream, which may read one document ahead.
 */
export class BatchReader {
  private pending: Document[] = [];
  private next = 0;
  private ended = false;

  constructor(private readonly stream: ResultStream) {}

  take(maxCount: number): Document[] {
    const batch: Document[] = [];
    let bytes = 0;
    while (batch.length < maxCount) {
      if (this.next >= this.pending.length && !this.pull(Math.min(maxCount - batch.length, PULL_SIZE))) break;
      const doc = this.pending[this.next];
      const size = BSON.calculateObjectSize(doc);
      if (batch.length > 0 && bytes + size > MAX_BATCH_BYTES) break;
      bytes += size;
      batch.push(doc);
      this.next++;
    }
    return batch;
  }

  get exhausted(): boolean {
    return this.next >= this.pending.length && (this.ended || this.stream.exhausted());
  }

  private pull(count: number): boolean {
    if (this.ended) return false;
    this.pending = this.stream.take(count);
    this.next = 0;
    if (this.pending.length < count) this.ended = true;
    return this.pending.length > 0;
  }
}
