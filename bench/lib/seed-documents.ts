import type { Collection, Db, Document, ObjectId } from 'mongodb';

/** Documents per `bucket` value: an indexed filter on one bucket matches this many at any size. */
export const BUCKET_SIZE = 100;
const BATCH = 5_000;

/**
 * (Re)creates `name` with `count` documents and an index on `bucket`, and returns their ids.
 * Bucket `b` holds documents `b * 100 .. b * 100 + 99`, so `{ bucket: b }` selects 100 at every
 * collection size and a size-independent plan is what the scale benchmark expects.
 */
export async function seedDocuments(
  db: Db,
  name: string,
  count: number,
): Promise<{ collection: Collection<Document>; ids: ObjectId[] }> {
  await db
    .collection(name)
    .drop()
    .catch(() => undefined);
  const collection = db.collection(name);
  await collection.createIndex({ bucket: 1 });
  const ids: ObjectId[] = [];
  for (let start = 0; start < count; start += BATCH) {
    const batch = Array.from({ length: Math.min(BATCH, count - start) }, (_, i) => {
      const n = start + i;
      return {
        n,
        bucket: Math.floor(n / BUCKET_SIZE),
        userId: n % 10,
        text: `Document number ${n}`,
        createdAt: 1_700_000_000_000 + n,
      };
    });
    const inserted = await collection.insertMany(batch, { ordered: true });
    for (let i = 0; i < batch.length; i++) ids.push(inserted.insertedIds[i]);
  }
  return { collection, ids };
}

/** Cycles through values so that repeated calls do not hit one document only. */
export function cycle<T>(values: T[]): () => T {
  let index = 0;
  return () => values[index++ % values.length];
}
