import type { Document } from 'bson';
import { CommandError } from '../base/command-error';
import { CollectionStore } from './collection-store';
import type { CatalogView, PersistedCollection, StorageEngine, WriteEvent } from './storage-engine';

/** All databases and their collections. Databases exist while they hold a collection, as in mongod. */
export class Catalog implements CatalogView {
  private readonly databases = new Map<string, Map<string, CollectionStore>>();
  /** Observers of committed changes (transactions track versions through this). */
  private readonly listeners: Array<(event: WriteEvent) => void> = [];
  private restoring = false;

  constructor(private readonly engine: StorageEngine) {
    engine.attach(this);
  }

  /** Rebuilds collections persisted by the engine, without reporting them back as new writes. */
  restore(collections: PersistedCollection[]): void {
    this.restoring = true;
    try {
      for (const persisted of collections) {
        const store = this.createCollection(persisted.db, persisted.collection, persisted.options);
        // Documents first: each index is then built with one sort instead of an insert per document.
        for (const doc of persisted.documents) store.insert(doc);
        for (const spec of persisted.indexes) store.createIndex(spec);
      }
    } finally {
      this.restoring = false;
    }
  }

  getCollection(db: string, name: string): CollectionStore | undefined {
    return this.databases.get(db)?.get(name);
  }

  /** The collection, created implicitly on first write as mongod does. */
  ensureCollection(db: string, name: string): { store: CollectionStore; created: boolean } {
    const existing = this.getCollection(db, name);
    if (existing) return { store: existing, created: false };
    return { store: this.createCollection(db, name, {}), created: true };
  }

  createCollection(db: string, name: string, options: Document): CollectionStore {
    assertValidCollectionName(name);
    if (this.getCollection(db, name))
      throw new CommandError('NamespaceExists', `Collection ${db}.${name} already exists.`);
    let collections = this.databases.get(db);
    if (!collections) {
      collections = new Map();
      this.databases.set(db, collections);
    }
    const store = new CollectionStore(db, name, options, (event) => this.record(event));
    collections.set(name, store);
    this.record({ type: 'createCollection', db, collection: name, options });
    return store;
  }

  dropCollection(db: string, name: string): boolean {
    const collections = this.databases.get(db);
    if (!collections?.delete(name)) return false;
    if (collections.size === 0) this.databases.delete(db);
    this.record({ type: 'dropCollection', db, collection: name });
    return true;
  }

  dropDatabase(db: string): void {
    for (const name of this.collectionNames(db)) this.dropCollection(db, name);
  }

  databaseNames(): string[] {
    return [...this.databases.keys()];
  }

  collectionNames(db: string): string[] {
    return [...(this.databases.get(db)?.keys() ?? [])];
  }

  snapshotCollection(db: string, collection: string): PersistedCollection | undefined {
    return this.getCollection(db, collection)?.snapshot();
  }

  snapshotAll(): PersistedCollection[] {
    return [...this.databases.values()].flatMap((collections) =>
      [...collections.values()].map((store) => store.snapshot()),
    );
  }

  /** Called after each change, once the engine has it; never for restored data. */
  onChange(listener: (event: WriteEvent) => void): void {
    this.listeners.push(listener);
  }

  private record(event: WriteEvent): void {
    if (this.restoring) return;
    this.engine.record(event);
    for (const listener of this.listeners) listener(event);
  }
}

function assertValidCollectionName(name: string): void {
  if (
    name.length === 0 ||
    name.includes('\0') ||
    name.startsWith('.') ||
    name.includes('$') ||
    name.startsWith('system.')
  ) {
    throw new CommandError('InvalidNamespace', `Invalid collection name: ${name}`);
  }
}
