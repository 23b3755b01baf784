import { Long, type Document } from 'bson';
import type { ChangeStreamHub } from './change-streams/change-stream-hub';
import type { CursorRegistry } from './cursor-registry';

/** mongod's wait for a getMore on an awaitData cursor without `maxTimeMS`. */
const DEFAULT_AWAIT_MS = 1000;

/**
 * A getMore that found nothing on a change-stream cursor waits for the next change (or until its
 * `maxTimeMS`, default 1 s, as mongod's awaitData) and runs again; the connection's reply waits,
 * the server does not. Any other reply is final as it is.
 */
export function awaitingReply(
  command: Document,
  reply: Document,
  cursors: CursorRegistry,
  hub: ChangeStreamHub | undefined,
  rerun: () => Document,
): Document | Promise<Document> {
  // Only a getMore waits: every other command is passed on by one property check.
  if (!hub || command.getMore === undefined || !isEmptyLiveBatch(reply) || !cursors.awaitsData(reply.cursor.id as Long))
    return reply;
  const waitMs = typeof command.maxTimeMS === 'number' && command.maxTimeMS > 0 ? command.maxTimeMS : DEFAULT_AWAIT_MS;
  const deadline = Date.now() + waitMs;
  return (async () => {
    let latest = reply;
    while (isEmptyLiveBatch(latest) && Date.now() < deadline) {
      await hub.waitForChange(deadline - Date.now());
      latest = rerun();
    }
    return latest;
  })();
}

function isEmptyLiveBatch(reply: Document): boolean {
  const cursor = reply.ok === 1 ? (reply.cursor as Document | undefined) : undefined;
  return (
    cursor !== undefined &&
    Array.isArray(cursor.nextBatch) &&
    cursor.nextBatch.length === 0 &&
    cursor.id instanceof Long &&
    !cursor.id.isZero()
  );
}
