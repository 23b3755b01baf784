import type { Document, Timestamp } from 'bson';
import type { ChangeRecord } from './change-record';
import { comparePositions, type StreamPosition } from './stream-position';

/**
 * The history as the storage engine keeps it (journal records, snapshots): one document per
 * change record, and horizon documents `{ horizon: { time, op } }` that say where the window
 * starts. A later horizon replaces an earlier one.
 */
export interface LoadedHistory {
  readonly records: ChangeRecord[];
  readonly horizon?: StreamPosition;
}

/** The record as a document; absent parts are left out (BSON would turn `undefined` into null). */
export function historyEntry(record: ChangeRecord): Document {
  const entry: Document = {};
  for (const [key, value] of Object.entries(record)) if (value !== undefined) entry[key] = value;
  return entry;
}

export function horizonEntry(position: StreamPosition): Document {
  return { horizon: { time: position.clusterTime, op: position.txnOpIndex } };
}

export function readHistoryEntries(entries: readonly Document[]): LoadedHistory {
  const records: ChangeRecord[] = [];
  let horizon: StreamPosition | undefined;
  for (const entry of entries) {
    if (entry.horizon) {
      horizon = positionOf(entry.horizon as Document);
      continue;
    }
    const record = { ...entry, txnOpIndex: Number(entry.txnOpIndex) } as ChangeRecord;
    // Positions only grow: a record at or before the last one kept is a copy (an earlier version's compaction cut
    // short).
    if (records.length === 0 || comparePositions(records[records.length - 1], record) < 0) records.push(record);
  }
  return { records, horizon };
}

function positionOf(doc: Document): StreamPosition {
  // a high-water index comes back as a Double
  return { clusterTime: doc.time as Timestamp, txnOpIndex: Number(doc.op) };
}
