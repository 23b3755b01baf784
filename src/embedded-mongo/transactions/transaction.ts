import type { CommandError } from '../base/command-error';
import type { Catalog } from '../storage/catalog';
import type { WriteEvent } from '../storage/storage-engine';
import type { CommitHistory } from './commit-history';
import { documentKey, namespaceKey } from './document-key';
import { TransactionCatalog } from './transaction-catalog';
import { operationNotSupported, snapshotUnavailable, writeConflict } from './transaction-errors';

/** Who else holds uncommitted writes: the first writer of a document keeps it until it ends. */
export interface WriteLocks {
  claim(key: string, owner: Transaction): boolean;
}

/**
 * One open multi-document transaction: its snapshot, its private catalog, and the writes it made
 * (in order, for commit). A conflict fails the transaction for good; the statement that hit it is
 * answered with the error and the transaction is aborted.
 */
export class Transaction {
  readonly snapshot: number;
  readonly catalog: TransactionCatalog;
  readonly events: WriteEvent[] = [];
  /** Documents written, by document key, with their namespace and `_id` for commit-time checks. */
  readonly written = new Map<string, { namespace: string; id: unknown }>();
  readonly namespaces = new Set<string>();
  failure?: CommandError;
  lastUse = Date.now();

  constructor(
    readonly txnNumber: number,
    base: Catalog,
    private readonly history: CommitHistory,
    private readonly locks: WriteLocks,
  ) {
    this.snapshot = history.open();
    this.catalog = new TransactionCatalog(
      base,
      history,
      this.snapshot,
      (event) => this.capture(event),
      (db, collection) => this.checkNamespace(db, collection),
    );
  }

  /** Keeps the first failure: it is what every later statement and the commit report. */
  fail(error: CommandError): CommandError {
    this.failure ??= error;
    return this.failure;
  }

  /** Ends snapshot tracking; call exactly once when the transaction commits or aborts. */
  release(): void {
    this.history.close(this.snapshot);
  }

  private capture(event: WriteEvent): void {
    const namespace = namespaceKey(event.db, event.collection);
    if (event.type === 'insert' || event.type === 'replace' || event.type === 'delete') {
      const id = event.type === 'delete' ? event.id : event.doc._id;
      const key = documentKey(namespace, id);
      if (!this.locks.claim(key, this))
        throw this.fail(writeConflict(`document ${key} is being written by another transaction`));
      this.written.set(key, { namespace, id }); // before any throw below: the lock is released with it
      if (this.history.documentChangedSince(namespace, id, this.snapshot)) {
        throw this.fail(writeConflict(`document ${key} was changed after the transaction's snapshot`));
      }
    } else if (event.type !== 'createCollection') {
      throw operationNotSupported(`${event.type} is not allowed in a multi-document transaction`);
    }
    this.namespaces.add(namespace);
    this.events.push(event);
  }

  private checkNamespace(db: string, collection: string): void {
    const namespace = namespaceKey(db, collection);
    if (this.history.namespaceChangedSince(namespace, this.snapshot))
      throw this.fail(snapshotUnavailable(`${db}.${collection}`));
  }
}
