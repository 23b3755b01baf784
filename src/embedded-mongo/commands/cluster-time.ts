import { Binary, Long, type Document, type Timestamp } from 'bson';
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
  let stamped = STAMPS.get(now);
  if (!stamped) STAMPS.set(now, (stamped = { clusterTime: now, signature: UNSIGNED }));
  reply.$clusterTime = stamped;
  reply.operationTime = now;
  return reply;
}

/** One `$clusterTime` per time, shared by every reply until the clock moves (replies are encoded, never changed). */
const STAMPS = new WeakMap<Timestamp, Document>();
