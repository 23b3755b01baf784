import { mkdirSync } from 'node:fs';
import { BSON, ObjectId, type Document } from 'bson';
import { writeSnapshot } from '../../src/embedded-mongo/storage/snapshot-file';

export const LARGE_DB = 'bench';
export const LARGE_COLLECTION = 'large';

/**
 * Document `n` of the large-collection benchmark: about 200 bytes of BSON, `n` unique and
 * increasing (the indexed field), the rest the kind of fields an application keeps.
 */
export function largeDocument(n: number): Document {
  return {
    // A fixed timestamp and `n` as the rest: unique, increasing, the same in every run.
    _id: new ObjectId(`${(1_700_000_000).toString(16)}${n.toString(16).padStart(16, '0')}`),
    n,
    bucket: Math.floor(n / 100),
    userId: n % 1000,
    createdAt: new Date(1_700_000_000_000 + n * 1000),
    text: `Document number ${n}, seeded for the large-collection benchmark (${String(n).padStart(7, '0')}).`,
    tags: ['bench', `b${n % 10}`],
  };
}

/**
 * Writes a data folder holding `count` documents in `bench.large` with an index on `n`, as the
 * server's own snapshot writer lays it out after a clean stop, so that the server under test
 * recovers it at start-up. Loading a million documents through the driver would take minutes;
 * this takes seconds and never holds the collection in memory (documents are made as the writer
 * reads them). Returns the BSON size of the documents.
 */
export async function writeDataFolder(dataDir: string, count: number): Promise<{ documentBytes: number }> {
  mkdirSync(dataDir, { recursive: true });
  let documentBytes = 0;
  const documents = {
    length: count,
    *[Symbol.iterator]() {
      for (let n = 0; n < count; n++) {
        const doc = largeDocument(n);
        documentBytes += BSON.calculateObjectSize(doc);
        yield doc;
      }
    },
  };
  await writeSnapshot(dataDir, {
    journalGeneration: 0,
    collections: [
      {
        db: LARGE_DB,
        collection: LARGE_COLLECTION,
        options: {},
        indexes: [{ v: 2, key: { n: 1 }, name: 'n_1' }],
        // The writer only iterates the documents and reads their count.
        documents: documents as unknown as Document[],
      },
    ],
  });
  return { documentBytes };
}
