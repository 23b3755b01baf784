import type { Document, Timestamp } from 'bson';
import type { Catalog } from '../storage/catalog';
import type { WriteEvent } from '../storage/storage-engine';
import { recordBytes, type ChangeOperation, type ChangeRecord } from './change-record';
import type { ClusterClock } from './cluster-clock';
import { describeUpdate, updateDescriptionBytes } from './update-description';

export interface Namespace {
  readonly db: string;
  readonly coll: string;
}

/** What the command that made the writes was, where that changes how its writes read as changes. */
export interface CommitContext {
  /** A committed transaction: its changes share one time, in order, and carry its session. */
  readonly transaction?: { readonly lsid: Document; readonly txnNumber: unknown };
  /** A renameCollection (done as copy, then drop): one rename change instead. */
  readonly rename?: { readonly from: Namespace; readonly to: Namespace };
  /** A dropDatabase: the drops of its collections, then one dropDatabase change. */
  readonly droppedDatabase?: string;
}

/** Where and when a change happened: the fields every record of one command shares or counts up. */
interface Stamp {
  readonly clusterTime: Timestamp;
  readonly txnOpIndex: number;
  readonly wallTime: Date;
  readonly lsid?: Document;
  readonly txnNumber?: unknown;
}

/**
 * Sees every committed write at the one place they all pass (the catalog's change listeners) and
 * turns the writes of each command into change records when the command is over: then it is
 * known whether they were a transaction's commit, a rename, or undone by a failed commit.
 */
export class ChangeRecorder {
  private pending: WriteEvent[] = [];

  constructor(
    private readonly catalog: Catalog,
    private readonly clock: ClusterClock,
  ) {
    catalog.onChange((event) => this.pending.push(event));
  }

  get hasPending(): boolean {
    return this.pending.length > 0;
  }

  /** The changes of the command that just ran, each with its place in the history. */
  take(context: CommitContext = {}): ChangeRecord[] {
    const events = context.rename
      ? this.pending.filter((event) => isDropOfOther(event, context.rename!.from))
      : this.pending;
    this.pending = [];
    const wallTime = new Date();
    const transaction = context.transaction;
    const transactionTime = transaction ? this.clock.tick() : undefined;
    const records: ChangeRecord[] = [];
    // Each change of a plain command has its own time; a transaction's share one and count up.
    const stamp = (): Stamp =>
      transaction
        ? {
            clusterTime: transactionTime!,
            txnOpIndex: records.length,
            wallTime,
            lsid: transaction.lsid,
            txnNumber: transaction.txnNumber,
          }
        : { clusterTime: this.clock.tick(), txnOpIndex: 0, wallTime };
    for (const event of events) {
      const record = this.record(event, stamp);
      if (record) records.push(record);
    }
    if (context.rename) {
      const { from, to } = context.rename;
      records.push(change(stamp(), 'rename', from.db, from.coll, { to }));
    }
    if (context.droppedDatabase !== undefined && records.length > 0) {
      records.push(change(stamp(), 'dropDatabase', context.droppedDatabase, undefined, {}));
    }
    return records;
  }

  /** Writes that were undone (a commit that failed half-way) are no changes. */
  discard(): void {
    this.pending = [];
  }

  private record(event: WriteEvent, stamp: () => Stamp): ChangeRecord | undefined {
    const { db, collection: coll } = event;
    switch (event.type) {
      case 'insert':
        return change(stamp(), 'insert', db, coll, { documentKey: { _id: event.doc._id }, fullDocument: event.doc });
      case 'replace': {
        const imagesEnabled = this.keepsImages(db, coll);
        const preImage = imagesEnabled ? event.previous : undefined;
        const documentKey = { _id: event.doc._id };
        if (event.replacement || !event.previous)
          return change(stamp(), 'replace', db, coll, {
            documentKey,
            fullDocument: event.doc,
            preImage,
            imagesEnabled,
          });
        const updateDescription = describeUpdate(event.previous, event.doc);
        return change(stamp(), 'update', db, coll, {
          documentKey,
          updateDescription,
          fullDocument: imagesEnabled ? event.doc : undefined,
          preImage,
          imagesEnabled,
        });
      }
      case 'delete': {
        const imagesEnabled = this.keepsImages(db, coll);
        return change(stamp(), 'delete', db, coll, {
          documentKey: { _id: event.id },
          preImage: imagesEnabled ? event.previous : undefined,
          imagesEnabled,
        });
      }
      case 'dropCollection':
        return change(stamp(), 'drop', db, coll, {});
      default:
        return undefined; // creating collections and indexes shows only in expanded events
    }
  }

  private keepsImages(db: string, coll: string): boolean {
    const setting = this.catalog.getCollection(db, coll)?.options.changeStreamPreAndPostImages as Document | undefined;
    return setting?.enabled === true;
  }
}

/** Of a rename's copy-and-drop, only the drop of a target it replaced is a change of its own. */
function isDropOfOther(event: WriteEvent, source: Namespace): boolean {
  return event.type === 'dropCollection' && !(event.db === source.db && event.collection === source.coll);
}

type ChangeBody = Pick<
  ChangeRecord,
  'documentKey' | 'fullDocument' | 'updateDescription' | 'preImage' | 'imagesEnabled' | 'to'
>;

/**
 * Every record is built by this one literal: one object shape for all of them (V8 keeps the
 * history's reads monomorphic), and no object spread, which costs microseconds per write here.
 */
function change(
  stamp: Stamp,
  operationType: ChangeOperation,
  db: string,
  coll: string | undefined,
  body: ChangeBody,
): ChangeRecord {
  return {
    clusterTime: stamp.clusterTime,
    txnOpIndex: stamp.txnOpIndex,
    wallTime: stamp.wallTime,
    lsid: stamp.lsid,
    txnNumber: stamp.txnNumber,
    operationType,
    db,
    coll,
    documentKey: body.documentKey,
    fullDocument: body.fullDocument,
    updateDescription: body.updateDescription,
    preImage: body.preImage,
    imagesEnabled: body.imagesEnabled,
    to: body.to,
    bytes:
      recordBytes(db, coll, [body.fullDocument, body.preImage]) +
      (body.updateDescription ? updateDescriptionBytes(body.updateDescription) : 0),
  };
}
