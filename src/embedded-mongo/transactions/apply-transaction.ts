import type { Catalog } from '../storage/catalog';
import type { WriteEvent } from '../storage/storage-engine';
import { toCommandError } from '../base/command-error';
import { writeConflict } from './transaction-errors';

type Undo = () => void;

/**
 * Replays a transaction's writes on the committed catalog, in order, inside one command, so the
 * journal gets them as one record. Touched documents are unchanged since the snapshot (checked
 * before), but a unique key may have been taken by a commit since: then everything applied so far
 * is undone and the commit fails with a retryable WriteConflict.
 */
export function applyTransaction(base: Catalog, events: readonly WriteEvent[]): void {
  const undo: Undo[] = [];
  try {
    for (const event of events) undo.push(applyOne(base, event));
  } catch (error) {
    for (const step of undo.reverse()) step();
    const cause = toCommandError(error);
    throw cause.codeName === 'DuplicateKey'
      ? writeConflict(`unique key taken by a concurrent commit: ${cause.message}`)
      : cause;
  }
}

function applyOne(base: Catalog, event: WriteEvent): Undo {
  switch (event.type) {
    case 'createCollection': {
      const { created } = base.ensureCollection(event.db, event.collection);
      return () => {
        if (created) base.dropCollection(event.db, event.collection);
      };
    }
    case 'insert': {
      const { store } = base.ensureCollection(event.db, event.collection);
      store.insert(event.doc);
      return () => store.delete(event.doc);
    }
    case 'replace': {
      const store = base.getCollection(event.db, event.collection);
      const current = store?.getById(event.doc._id);
      if (!store || !current) throw writeConflict(`document to replace is gone from ${event.db}.${event.collection}`);
      store.replace(current, event.doc, event.replacement);
      return () => store.replace(event.doc, current);
    }
    case 'delete': {
      const store = base.getCollection(event.db, event.collection);
      const current = store?.getById(event.id);
      if (!store || !current) return () => undefined;
      store.delete(current);
      return () => store.insert(current);
    }
    default:
      throw new Error(`unexpected ${event.type} in a transaction`);
  }
}
