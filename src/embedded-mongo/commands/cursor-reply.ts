import type { Document, Long } from 'bson';

/** The `{ cursor: { id, ns, firstBatch|nextBatch }, ok: 1 }` shape every cursor command returns. */
export function cursorReply(id: Long, namespace: string, batch: Document[], kind: 'firstBatch' | 'nextBatch'): Document {
  return { cursor: { [kind]: batch, id, ns: namespace }, ok: 1 };
}
