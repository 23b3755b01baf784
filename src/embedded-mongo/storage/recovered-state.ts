import type { Document } from 'bson';
import type { IndexSpec } from './index-spec';
import type { PersistedCollection, WriteEvent } from './storage-engine';
import { valueKey } from './value-key';

interface RecoveredCollection {
  readonly db: string;
  readonly collection: string;
  options: Document;
  indexes: IndexSpec[];
  /** Keyed like the live store, so replay addresses the same document and keeps natural order. */
  readonly docs: Map<string, Document>;
}

/** The catalog being rebuilt at start-up: a snapshot with journaled events applied in order. */
export class RecoveredState {
  private readonly collections = new Map<string, RecoveredCollection>();

  constructor(base: readonly PersistedCollection[] = []) {
    for (const persisted of base) {
      const target = this.create(persisted.db, persisted.collection, persisted.options);
      target.indexes = [...persisted.indexes];
      for (const doc of persisted.documents) target.docs.set(valueKey(doc._id), doc);
    }
  }

  apply(event: WriteEvent): void {
    const key = namespaceKey(event.db, event.collection);
    switch (event.type) {
      case 'createCollection':
        this.create(event.db, event.collection, event.options);
        return;
      case 'dropCollection':
        this.collections.delete(key);
        return;
      case 'insert':
      case 'replace':
        this.ensure(event.db, event.collection).docs.set(valueKey(event.doc._id), event.doc);
        return;
      case 'delete':
        this.collections.get(key)?.docs.delete(valueKey(event.id));
        return;
      case 'createIndex': {
        const target = this.ensure(event.db, event.collection);
        if (!target.indexes.some((spec) => spec.name === event.spec.name)) target.indexes.push(event.spec);
        return;
      }
      case 'dropIndex': {
        const target = this.collections.get(key);
        if (target) target.indexes = target.indexes.filter((spec) => spec.name !== event.name);
        return;
      }
      case 'modifyCollection': {
        const target = this.collections.get(key);
        if (target) target.options = event.options;
        return;
      }
      case 'modifyIndex': {
        const target = this.collections.get(key);
        if (target) target.indexes = target.indexes.map((spec) => (spec.name === event.spec.name ? event.spec : spec));
        return;
      }
    }
  }

  toCollections(): PersistedCollection[] {
    return [...this.collections.values()].map(({ db, collection, options, indexes, docs }) => ({
      db,
      collection,
      options,
      indexes,
      documents: [...docs.values()],
    }));
  }

  private create(db: string, collection: string, options: Document): RecoveredCollection {
    const created: RecoveredCollection = { db, collection, options, indexes: [], docs: new Map() };
    this.collections.set(namespaceKey(db, collection), created);
    return created;
  }

  private ensure(db: string, collection: string): RecoveredCollection {
    return this.collections.get(namespaceKey(db, collection)) ?? this.create(db, collection, {});
  }
}

function namespaceKey(db: string, collection: string): string {
  return JSON.stringify([db, collection]);
}
