import { Catalog } from '../storage/catalog';
import type { CollectionStore } from '../storage/collection-store';
import type { StorageEngine, WriteEvent } from '../storage/storage-engine';
import type { CommitHistory } from './commit-history';
import { namespaceKey } from './document-key';

/**
 * A transaction's private catalog (copy-on-first-touch): a collection is copied from the
 * committed catalog as of the transaction's snapshot the first time the transaction touches it,
 * and all of the transaction's reads and writes then go to that copy. Real CollectionStores are
 * used, so every index (unique, ordered, text) and every command behaves as outside a transaction;
 * other sessions never see the copy. Writes are reported to `capture`.
 */
export class TransactionCatalog extends Catalog {
  private readonly touched = new Set<string>();

  constructor(
    private readonly base: Catalog,
    private readonly history: CommitHistory,
    private readonly snapshot: number,
    /** Throws to refuse a write (a conflict); otherwise keeps it for commit. */
    capture: (event: WriteEvent) => void,
    /** Throws when the namespace changed shape after the snapshot. */
    private readonly checkNamespace: (db: string, collection: string) => void,
  ) {
    super(captureEngine(capture));
  }

  override getCollection(db: string, name: string): CollectionStore | undefined {
    const key = namespaceKey(db, name);
    if (!this.touched.has(key)) this.copyFromBase(db, name, key);
    return super.getCollection(db, name);
  }

  override collectionNames(db: string): string[] {
    return [...new Set([...this.base.collectionNames(db), ...super.collectionNames(db)])];
  }

  override databaseNames(): string[] {
    return [...new Set([...this.base.databaseNames(), ...super.databaseNames()])];
  }

  private copyFromBase(db: string, name: string, key: string): void {
    this.checkNamespace(db, name);
    this.touched.add(key);
    const committed = this.base.getCollection(db, name);
    if (!committed) return;
    const documents = this.history.documentsAt(key, committed, this.snapshot);
    const indexes = committed.indexes().filter((spec) => spec.name !== '_id_');
    // restore() rebuilds without reporting: the copy itself is not a write of the transaction.
    this.restore([{ db, collection: name, options: committed.options, indexes, documents }]);
  }
}

function captureEngine(capture: (event: WriteEvent) => void): StorageEngine {
  return {
    load: async () => [],
    attach: () => undefined,
    record: capture,
    commit: () => undefined,
    close: async () => undefined,
  };
}
