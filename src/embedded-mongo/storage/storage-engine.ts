import type { Document } from 'bson';
import type { IndexSpec } from './index-spec';

/**
 * One change to the catalog, reported synchronously as it happens. The journaling engine appends
 * them as they are; `previous` (the document replaced or deleted) serves snapshot reads of open
 * transactions and change streams, and is never journaled; `replacement` tells a whole-document
 * replacement from an update (change streams report them apart).
 */
export type WriteEvent =
  | { readonly type: 'insert'; readonly db: string; readonly collection: string; readonly doc: Document }
  | {
      readonly type: 'replace';
      readonly db: string;
      readonly collection: string;
      readonly doc: Document;
      readonly previous?: Document;
      readonly replacement?: boolean;
    }
  | {
      readonly type: 'delete';
      readonly db: string;
      readonly collection: string;
      readonly id: unknown;
      readonly previous?: Document;
    }
  | { readonly type: 'createCollection'; readonly db: string; readonly collection: string; readonly options: Document }
  | { readonly type: 'dropCollection'; readonly db: string; readonly collection: string }
  | { readonly type: 'createIndex'; readonly db: string; readonly collection: string; readonly spec: IndexSpec }
  | { readonly type: 'dropIndex'; readonly db: string; readonly collection: string; readonly name: string }
  /** collMod: the collection's options as they now are (validator, validation level and action). */
  | { readonly type: 'modifyCollection'; readonly db: string; readonly collection: string; readonly options: Document }
  /** collMod of an index: its spec as it now is (hidden, expireAfterSeconds). */
  | { readonly type: 'modifyIndex'; readonly db: string; readonly collection: string; readonly spec: IndexSpec };

/** A collection as persisted: what the catalog needs to rebuild it at start-up. */
export interface PersistedCollection {
  readonly db: string;
  readonly collection: string;
  readonly options: Document;
  readonly indexes: IndexSpec[];
  readonly documents: Document[];
}

/** Read access to the live catalog, for engines that write whole snapshots. */
export interface CatalogView {
  snapshotCollection(db: string, collection: string): PersistedCollection | undefined;
  /** Every collection as of now; documents are shared, never copied (stored documents are immutable). */
  snapshotAll(): PersistedCollection[];
}

/**
 * The change-stream history as an engine keeps it: opaque documents, oldest first (the history's
 * own codec gives them meaning). Returns the documents that make up the retained window now.
 */
export type HistoryWindow = () => Document[];

/**
 * Where durability plugs in. The server calls `record` for every change while a command runs,
 * then awaits `commit` before it replies, so an engine that fsyncs there makes acknowledged
 * writes durable without the command code knowing about files.
 */
export interface StorageEngine {
  load(): Promise<PersistedCollection[]>;
  attach(view: CatalogView): void;
  /**
   * An engine that persists the change-stream history with the data implements this: every
   * snapshot holds `window()` taken at the same moment as the collections, and the history
   * documents given to `commit` are written with that commit's changes. Returns the history
   * documents `load` recovered (which snapshots keep as they are until this is called).
   */
  keepHistory?(window: HistoryWindow): Document[];
  record(event: WriteEvent): void;
  /**
   * Resolves when everything recorded so far, and the history documents of the command (its
   * change records), are as durable as this engine makes them: one write for both.
   */
  commit(history?: readonly Document[]): Promise<void> | undefined;
  close(): Promise<void>;
}
