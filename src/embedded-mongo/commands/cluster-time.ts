import { BSON, Binary, Long, Timestamp } from 'bson';
import type { ChangeStreamHub } from '../change-streams/change-stream-hub';

/** An unsigned cluster time: mongod without authentication signs with key 0 and a zero hash. */
const UNSIGNED = { hash: new Binary(Buffer.alloc(20), 0), keyId: Long.fromNumber(0) };

/**
 * `$clusterTime` and `operationTime` as BSON elements, for time 0: the same bytes for every time
 * but the two timestamps. A Timestamp is 8 bytes little-endian, increment first, then seconds.
 */
const TEMPLATE = (() => {
  const encoded = Buffer.from(
    BSON.serialize({
      $clusterTime: { clusterTime: new Timestamp({ t: 0, i: 0 }), signature: UNSIGNED },
      operationTime: new Timestamp({ t: 0, i: 0 }),
    }),
  );
  return encoded.subarray(4, encoded.length - 1);
})();
/** Type byte, `$clusterTime\0`, the sub-document's length, type byte, `clusterTime\0`. */
const CLUSTER_TIME_AT = 1 + '$clusterTime'.length + 1 + 4 + 1 + 'clusterTime'.length + 1;
const OPERATION_TIME_AT = TEMPLATE.length - 8;

/** The elements of the latest time asked for: replies between two ticks share them. */
let latest: { time: Timestamp; elements: Buffer } | undefined;

/**
 * Every reply of a replica-set member carries `$clusterTime` and `operationTime` (the time of the
 * latest change it has seen): drivers gossip it, `startAtOperationTime` and causally consistent
 * sessions build on it. They are encoded once per time, not per reply, and handed to the encoder
 * beside the reply (which is not touched: a property added to it made its encoding slower), to be
 * written as its last fields. Taken when the command has run, they keep its time.
 */
export function clusterTimeElements(hub: ChangeStreamHub): Buffer {
  const now = hub.clock.current();
  if (latest?.time !== now) latest = { time: now, elements: elementsAt(now) };
  return latest.elements;
}

function elementsAt(time: Timestamp): Buffer {
  const elements = Buffer.from(TEMPLATE);
  for (const at of [CLUSTER_TIME_AT, OPERATION_TIME_AT]) {
    elements.writeUInt32LE(time.i, at);
    elements.writeUInt32LE(time.t, at + 4);
  }
  return elements;
}
