import { BSON, type Document } from 'bson';
import { MAX_BSON_OBJECT_SIZE } from '../wire/wire-constants';

/** Room left for the reply envelope (`cursor`, `ns`, `id`, `ok`) inside a 16 MiB reply. */
const ENVELOPE_RESERVE = 16 * 1024;
export const MAX_BATCH_BYTES = MAX_BSON_OBJECT_SIZE - ENVELOPE_RESERVE;

/**
 * Takes the next batch from `docs[start..]`: at most `maxCount` documents and at most
 * MAX_BATCH_BYTES of BSON, but always at least one document so a cursor always progresses.
 */
export function takeBatch(docs: readonly Document[], start: number, maxCount: number): Document[] {
  const batch: Document[] = [];
  let bytes = 0;
  for (let i = start; i < docs.length && batch.length < maxCount; i++) {
    const size = BSON.calculateObjectSize(docs[i]);
    if (batch.length > 0 && bytes + size > MAX_BATCH_BYTES) break;
    bytes += size;
    batch.push(docs[i]);
  }
  return batch;
}
