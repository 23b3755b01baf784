import type { Document, Long } from 'bson';

/**
 * The `{ cursor: { id, ns, firstBatch|nextBatch }, ok: 1 }` shape every cursor command returns (change streams add
 * `postBatchResumeToken`).
 */
export function cursorReply(
  id: Long,
  namespace: string,
  batch: Document[],
  kind: 'firstBatch' | 'nextBatch',
  postBatchResumeToken?: Document,
): Document {
  const cursor: Document = {
    [kind]: batch,
    ...(postBatchResumeToken ? { postBatchResumeToken } : {}),
    id,
    ns: namespace,
  };
  return { cursor, ok: 1 };
}
