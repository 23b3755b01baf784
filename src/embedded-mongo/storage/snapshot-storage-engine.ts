import { promises as fs } from 'node:fs';
import path from 'node:path';
import { BSON, EJSON, type Document } from 'bson';
import type { CatalogView, PersistedCollection, StorageEngine, WriteEvent } from './storage-engine';
import type { IndexSpec } from './index-spec';

const FLUSH_DELAY_MS = 50;
const DATA_SUFFIX = '.bson';
const META_SUFFIX = '.meta.json';

/**
 * Part-1 persistence: each changed collection is rewritten as a whole file shortly after the
 * write (temp file + rename, so a crash leaves the previous snapshot intact). Writes inside the
 * delay window can be lost on a crash. The server now uses JournalStorageEngine; this one stays
 * as the reader of part-1 dataDirs, which the journal engine migrates (legacy-snapshot.ts).
 */
export class SnapshotStorageEngine implements StorageEngine {
  private view?: CatalogView;
  private readonly dirty = new Set<string>();
  private timer?: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();

  constructor(private readonly dataDir: string) {}

  async load(): Promise<PersistedCollection[]> {
    await fs.mkdir(this.dataDir, { recursive: true });
    const loaded: PersistedCollection[] = [];
    for (const dbEntry of await fs.readdir(this.dataDir, { withFileTypes: true })) {
      if (!dbEntry.isDirectory()) continue;
      const dbDir = path.join(this.dataDir, dbEntry.name);
      for (const file of await fs.readdir(dbDir)) {
        if (!file.endsWith(META_SUFFIX)) continue;
        loaded.push(
          await this.loadCollection(dbDir, decodeURIComponent(dbEntry.name), file.slice(0, -META_SUFFIX.length)),
        );
      }
    }
    return loaded;
  }

  attach(view: CatalogView): void {
    this.view = view;
  }

  record(event: WriteEvent): void {
    this.dirty.add(JSON.stringify([event.db, event.collection]));
    this.timer ??= setTimeout(() => this.scheduleFlush(), FLUSH_DELAY_MS);
  }

  commit(): undefined {
    return undefined;
  }

  async close(): Promise<void> {
    this.scheduleFlush();
    await this.flushing;
  }

  private scheduleFlush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const pending = [...this.dirty].map((entry) => JSON.parse(entry) as [string, string]);
    this.dirty.clear();
    // Snapshots are taken now, synchronously, so the files reflect one consistent moment.
    const jobs = pending.map(([db, collection]) => ({
      db,
      collection,
      snapshot: this.view?.snapshotCollection(db, collection),
    }));
    this.flushing = this.flushing.then(async () => {
      for (const job of jobs) await this.writeCollection(job.db, job.collection, job.snapshot);
    });
  }

  private async writeCollection(
    db: string,
    collection: string,
    snapshot: PersistedCollection | undefined,
  ): Promise<void> {
    const dbDir = path.join(this.dataDir, encodeURIComponent(db));
    const base = path.join(dbDir, encodeURIComponent(collection));
    if (!snapshot) {
      await fs.rm(base + DATA_SUFFIX, { force: true });
      await fs.rm(base + META_SUFFIX, { force: true });
      return;
    }
    await fs.mkdir(dbDir, { recursive: true });
    const data = Buffer.concat(snapshot.documents.map((doc) => BSON.serialize(doc)));
    const meta = EJSON.stringify({ options: snapshot.options, indexes: snapshot.indexes });
    await writeAtomically(base + DATA_SUFFIX, data);
    await writeAtomically(base + META_SUFFIX, Buffer.from(meta));
  }

  private async loadCollection(dbDir: string, db: string, encodedName: string): Promise<PersistedCollection> {
    const base = path.join(dbDir, encodedName);
    const meta = EJSON.parse(await fs.readFile(base + META_SUFFIX, 'utf8')) as {
      options: Document;
      indexes: IndexSpec[];
    };
    const data = await fs.readFile(base + DATA_SUFFIX).catch(() => Buffer.alloc(0));
    const documents: Document[] = [];
    for (let offset = 0; offset + 4 <= data.length;) {
      const size = data.readInt32LE(offset);
      if (size < 5 || offset + size > data.length) break; // a torn tail: keep what is whole
      documents.push(BSON.deserialize(data.subarray(offset, offset + size)));
      offset += size;
    }
    return { db, collection: decodeURIComponent(encodedName), options: meta.options, indexes: meta.indexes, documents };
  }
}

async function writeAtomically(file: string, content: Buffer): Promise<void> {
  const temporary = `${file}.tmp`;
  await fs.writeFile(temporary, content);
  await fs.rename(temporary, file);
}
