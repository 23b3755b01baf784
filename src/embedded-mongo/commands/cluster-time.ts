import { Binary, Long, type Document } from 'bson';
import type { ChangeStreamHub } from '../change-streams/change-stream-hub';

/** An unsigned cluster time: mongod without authentication signs with key 0 and a zero hash. */
const UNSIGNED = { hash: new Binary(Buffer.alloc(20), 0), keyId: Long.fromNumber(0) };

/**
 * Every reply of a replica-set member carries `$clusterTime` and `operationTime` (the time of the
 * latest change it has seen): drivers gossip it, `startAtOperationTime` and causally consistent
 * sessions build on it.
 */
export function withClusterTime(reply: Document, hub: ChangeStreamHub): Document {
  const now = hub.clock.current();
  reply.$clusterTime = { clusterTime: now, signature: UNSIGNED };
  reply.operationTime = now;
  return reply;
}
