import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Document, Timestamp } from 'bson';
import type { EmbeddedMongoLogger } from '../base/logger';
import { listJournals } from '../storage/journal-files';
import { frameRecord, scanRecords } from '../storage/journal-record';
import { JournalWriter } from '../storage/journal-writer';
import { decodeStoredSequence, encodeStored } from '../storage/stored-bson';
import type { ChangeRecord } from './change-record';
import type { StreamPosition } from './stream-position';

/** Beside the catalog's journal, in the dataDir: `<dataDir>/change-stream-history/journal-*.log`. */
export const HISTORY_FOLDER = 'change-stream-history';
/** The file is rewritten from the window once it has grown past twice the window (and this). */
const MIN_COMPACTION_BYTES = 1024 * 1024;

export interface LoadedHistory {
  readonly records: ChangeRecord[];
  readonly horizon?: StreamPosition;
}

/**
 * The change-stream window on disk, so that resume tokens survive a restart: each command's
 * changes are appended as one checksummed, fsynced record (the catalog journal's writer and
 * framing, in a folder of its own); compaction starts a new file with the horizon and the
 * retained records and deletes the older files.
 */
export class HistoryFile {
  private bytesSinceCompaction = 0;

  private constructor(
    private readonly folder: string,
    private readonly writer: JournalWriter,
    private readonly logger: EmbeddedMongoLogger,
  ) {}

  static async open(dataDir: string, logger: EmbeddedMongoLogger): Promise<{ file: HistoryFile; loaded: LoadedHistory }> {
    const folder = path.join(dataDir, HISTORY_FOLDER);
    await fs.mkdir(folder, { recursive: true });
    const records: ChangeRecord[] = [];
    let horizon: StreamPosition | undefined;
    let lastGeneration = 0;
    for (const journal of await listJournals(folder)) {
      lastGeneration = journal.generation;
      const bytes = await fs.readFile(journal.file);
      const scan = scanRecords(bytes);
      for (const payload of scan.payloads) {
        for (const doc of decodeStoredSequence(payload)) {
          if (doc.horizon) horizon = positionOf(doc.horizon as Document);
          else records.push(recordOf(doc));
        }
      }
      if (scan.damage) {
        logger.warn('change-stream history tail is torn; cut off', { file: journal.file, reason: scan.damage });
        await fs.truncate(journal.file, scan.validLength);
      }
    }
    // A compaction cut short leaves the same records in the old and the new file: keep one of each.
    const unique = records.filter((record, index) => index === 0 || positionKey(records[index - 1]) < positionKey(record));
    return { file: new HistoryFile(folder, new JournalWriter(folder, lastGeneration + 1), logger), loaded: { records: unique, horizon } };
  }

  /** Resolves once the changes are on disk (the reply waits for it, as for the journal). */
  append(records: readonly ChangeRecord[]): Promise<void> {
    const framed = frameRecord(records.map(encodeRecord));
    this.bytesSinceCompaction += framed.length;
    return this.writer.append(framed);
  }

  needsCompaction(windowBytes: number): boolean {
    return this.bytesSinceCompaction > 2 * Math.max(windowBytes, MIN_COMPACTION_BYTES);
  }

  /** Starts a new file holding exactly the window, then removes the files before it. */
  compact(horizon: StreamPosition, retained: readonly ChangeRecord[]): Promise<void> {
    const covered = this.writer.rotate();
    const framed = frameRecord([encodeStored({ horizon: positionDocument(horizon) }), ...retained.map(encodeRecord)]);
    this.bytesSinceCompaction = framed.length;
    return this.writer
      .append(framed)
      .then(async () => {
        for (const journal of await listJournals(this.folder)) if (journal.generation <= covered) await fs.rm(journal.file, { force: true });
      })
      .catch((error: Error) => this.logger.error('change-stream history compaction failed; older files kept', { error: error.message }));
  }

  async close(): Promise<void> {
    await this.writer.close();
  }
}

function positionKey(record: ChangeRecord): bigint {
  const { clusterTime, txnOpIndex } = record;
  return (BigInt(clusterTime.t) << 64n) | (BigInt(clusterTime.i) << 32n) | BigInt(txnOpIndex);
}

function positionDocument(position: StreamPosition): Document {
  return { time: position.clusterTime, op: position.txnOpIndex };
}

function positionOf(doc: Document): StreamPosition {
  return { clusterTime: doc.time as Timestamp, txnOpIndex: Number(doc.op) }; // a high-water index comes back as a Double
}

/** The record as BSON; absent parts are left out (BSON would turn `undefined` into null). */
function encodeRecord(record: ChangeRecord): Uint8Array {
  const doc: Document = {};
  for (const [key, value] of Object.entries(record)) if (value !== undefined) doc[key] = value;
  return encodeStored(doc);
}

function recordOf(doc: Document): ChangeRecord {
  return { ...doc, txnOpIndex: Number(doc.txnOpIndex) } as ChangeRecord;
}
