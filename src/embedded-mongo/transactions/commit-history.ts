import type { Document } from 'bson';
import type { CollectionStore } from '../storage/collection-store';
import type { WriteEvent } from '../storage/storage-engine';
import { valueKey } from '../storage/value-key';
import { namespaceKey } from './document-key';

interface Change {
  /** Clock value of the committed change. */
  readonly version: number;
  /** The document just before it; undefined when it did not exist. */
  readonly before: Document | undefined;
}

interface DocumentChanges {
  readonly id: unknown;
  readonly changes: Change[];
}

/**
 * Versions of committed changes, for snapshot isolation. Every committed change ticks a clock; a
 * transaction's snapshot is the clock value when it started. While any transaction is open, each
 * change keeps the prior document, so a snapshot can be rebuilt and a write to a document changed
 * after the snapshot is known to conflict. With no transaction open, nothing is kept.
 */
export class CommitHistory {
  private clock = 0;
  private readonly openSnapshots = new Map<number, number>();
  private readonly documents = new Map<string, Map<string, DocumentChanges>>();
  /** Last collection-level change (create, drop, index) per namespace. */
  private readonly namespaces = new Map<string, number>();

  /** Starts tracking for a new transaction; returns its snapshot. */
  open(): number {
    this.openSnapshots.set(this.clock, (this.openSnapshots.get(this.clock) ?? 0) + 1);
    return this.clock;
  }

  close(snapshot: number): void {
    const count = (this.openSnapshots.get(snapshot) ?? 1) - 1;
    if (count > 0) this.openSnapshots.set(snapshot, count);
    else this.openSnapshots.delete(snapshot);
    this.prune();
  }

  observe(event: WriteEvent): void {
    this.clock++;
    if (this.openSnapshots.size === 0) return;
    const namespace = namespaceKey(event.db, event.collection);
    switch (event.type) {
      case 'insert':
        return this.remember(namespace, event.doc._id, undefined);
      case 'replace':
        return this.remember(namespace, event.doc._id, event.previous);
      case 'delete':
        return this.remember(namespace, event.id, event.previous);
      default:
        this.namespaces.set(namespace, this.clock);
    }
  }

  documentChangedSince(namespace: string, id: unknown, snapshot: number): boolean {
    const changes = this.documents.get(namespace)?.get(valueKey(id))?.changes;
    return changes !== undefined && changes[changes.length - 1].version > snapshot;
  }

  namespaceChangedSince(namespace: string, snapshot: number): boolean {
    return (this.namespaces.get(namespace) ?? 0) > snapshot;
  }

  /** The collection's documents as they were at `snapshot`, rebuilt from the current ones. */
  documentsAt(namespace: string, store: CollectionStore, snapshot: number): Document[] {
    const changed = this.documents.get(namespace);
    if (!changed) return [...store.documents()];
    const out: Document[] = [];
    for (const doc of store.documents()) {
      const entry = changed.get(valueKey(doc._id));
      const then = entry ? valueAt(entry, snapshot) : doc;
      if (then) out.push(then === CURRENT ? doc : then);
    }
    for (const entry of changed.values()) {
      if (store.getById(entry.id) !== undefined) continue;
      const then = valueAt(entry, snapshot);
      if (then && then !== CURRENT) out.push(then); // deleted since the snapshot
    }
    return out;
  }

  private remember(namespace: string, id: unknown, before: Document | undefined): void {
    let changed = this.documents.get(namespace);
    if (!changed) this.documents.set(namespace, (changed = new Map()));
    const key = valueKey(id);
    const entry = changed.get(key);
    if (entry) entry.changes.push({ version: this.clock, before });
    else changed.set(key, { id, changes: [{ version: this.clock, before }] });
  }

  /** Drops what no open snapshot can need: changes at or before the oldest one. */
  private prune(): void {
    if (this.openSnapshots.size === 0) {
      this.documents.clear();
      this.namespaces.clear();
      return;
    }
    const oldest = Math.min(...this.openSnapshots.keys());
    for (const [namespace, changed] of this.documents) {
      for (const [key, entry] of changed) {
        if (entry.changes[entry.changes.length - 1].version <= oldest) changed.delete(key);
      }
      if (changed.size === 0) this.documents.delete(namespace);
    }
    for (const [namespace, version] of this.namespaces) if (version <= oldest) this.namespaces.delete(namespace);
  }
}

const CURRENT: Document = {};

/** The first change after the snapshot tells what the document was at the snapshot. */
function valueAt(entry: DocumentChanges, snapshot: number): Document | undefined {
  const first = entry.changes.find((change) => change.version > snapshot);
  return first ? first.before : CURRENT;
}
