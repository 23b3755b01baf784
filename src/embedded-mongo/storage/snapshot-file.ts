import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Document } from 'bson';
import type { IndexSpec } from './index-spec';
import { frameRecord, scanRecords } from './journal-record';
import { SNAPSHOT_FILE, SNAPSHOT_TEMP_FILE, syncDirectory } from './journal-files';
import { decodeStoredSequence, encodeStored } from './stored-bson';
import type { PersistedCollection } from './storage-engine';

const FORMAT = 'embedded-mongo-snapshot/1';
/** Documents are grouped into records of about this size: few headers, bounded memory. */
const CHUNK_BYTES = 1 << 20;

export interface SnapshotContents {
  /** Every journal generation up to this one is contained in the snapshot. */
  readonly journalGeneration: number;
  readonly collections: PersistedCollection[];
  /** The change-stream history's window at the same moment (absent in snapshots written before it was kept here). */
  readonly history?: readonly Document[];
}

/**
 * Writes the whole catalog as one file of checksummed records: a header, then per collection a
 * descriptor record followed by document records, then the change-stream history's records,
 * then an end marker. Temp file + fsync +
 * rename + directory fsync: a crash leaves either the old or the new snapshot, never a mix.
 */
export async function writeSnapshot(dataDir: string, contents: SnapshotContents): Promise<void> {
  const temporary = path.join(dataDir, SNAPSHOT_TEMP_FILE);
  const file = await fs.open(temporary, 'w');
  try {
    // appendFile on a handle writes everything at the current position, looping over short writes.
    const write = (parts: Uint8Array[]): Promise<void> => file.appendFile(frameRecord(parts));
    await write([encodeStored({ kind: 'header', format: FORMAT, journalGeneration: contents.journalGeneration })]);
    /** Documents in records of about CHUNK_BYTES, each record led by `kind`. */
    const writeChunked = async (kind: string, documents: readonly Document[]): Promise<void> => {
      let chunk: Uint8Array[] = [encodeStored({ kind })];
      let size = 0;
      for (const doc of documents) {
        const bytes = encodeStored(doc);
        chunk.push(bytes);
        size += bytes.byteLength;
        if (size < CHUNK_BYTES) continue;
        await write(chunk);
        chunk = [chunk[0]];
        size = 0;
      }
      if (chunk.length > 1) await write(chunk);
    };
    for (const collection of contents.collections) {
      const { db, collection: name, options, indexes, documents } = collection;
      await write([
        encodeStored({ kind: 'collection', db, collection: name, options, indexes, count: documents.length }),
      ]);
      await writeChunked('documents', documents);
    }
    await writeChunked('history', contents.history ?? []);
    await write([encodeStored({ kind: 'end', collections: contents.collections.length })]);
    await file.sync();
  } finally {
    await file.close();
  }
  await fs.rename(temporary, path.join(dataDir, SNAPSHOT_FILE));
  await syncDirectory(dataDir);
}

/** Reads the snapshot, if there is one. A damaged snapshot is an error: it is the only copy of old data. */
export async function readSnapshot(dataDir: string): Promise<SnapshotContents | undefined> {
  await fs.rm(path.join(dataDir, SNAPSHOT_TEMP_FILE), { force: true });
  const bytes = await fs.readFile(path.join(dataDir, SNAPSHOT_FILE)).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (!bytes) return undefined;
  const scan = scanRecords(bytes);
  const records = scan.payloads.map(decodeStoredSequence);
  const header = records[0]?.[0];
  const end = records[records.length - 1]?.[0];
  if (scan.damage || header?.format !== FORMAT || end?.kind !== 'end') {
    throw new Error(
      `snapshot ${path.join(dataDir, SNAPSHOT_FILE)} is damaged (${scan.damage ?? 'missing header or end marker'})`,
    );
  }
  const collections: Array<PersistedCollection & { documents: Document[] }> = [];
  const history: Document[] = [];
  for (const [descriptor, ...docs] of records.slice(1, -1)) {
    if (descriptor.kind === 'collection') {
      collections.push({
        db: descriptor.db as string,
        collection: descriptor.collection as string,
        options: (descriptor.options as Document) ?? {},
        indexes: (descriptor.indexes as IndexSpec[]) ?? [],
        documents: [],
      });
    } else if (descriptor.kind === 'documents') {
      const target = collections[collections.length - 1];
      for (const doc of docs) target?.documents.push(doc);
    } else if (descriptor.kind === 'history') {
      for (const doc of docs) history.push(doc);
    }
  }
  return { journalGeneration: header.journalGeneration as number, collections, history };
}
