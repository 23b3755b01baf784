import { promises as fs } from 'node:fs';
import type { Document } from 'bson';
import type { EmbeddedMongoLogger } from '../base/logger';
import { encodeEvent, encodeHistoryEntry } from './journal-codec';
import { listJournals } from './journal-files';
import { frameRecord } from './journal-record';
import { recover } from './journal-recovery';
import { JournalWriter } from './journal-writer';
import { removeLegacyCollections } from './legacy-snapshot';
import { acquireDataDirLock } from './lock-file';
import { writeSnapshot } from './snapshot-file';
import type { CatalogView, HistoryWindow, PersistedCollection, StorageEngine, WriteEvent } from './storage-engine';

export interface JournalSettings {
  /** A snapshot is taken this often when the journal holds anything (default 60 s). */
  readonly snapshotIntervalMs?: number;
  /** ...and as soon as the journal grows past this many bytes (default 64 MiB). */
  readonly snapshotJournalBytes?: number;
}

/**
 * Durable storage: each command's changes (with its change-stream records) become one
 * checksummed journal record, fsynced (with group commit) before the reply; a periodic snapshot
 * of the whole catalog and the history's window lets older journal files be deleted. Start-up
 * loads the snapshot and replays newer journals.
 */
export class JournalStorageEngine implements StorageEngine {
  private view?: CatalogView;
  private historyWindow?: HistoryWindow;
  private recoveredHistory: Document[] = [];
  private writer?: JournalWriter;
  private releaseLock?: () => Promise<void>;
  private pendingEvents: Uint8Array[] = [];
  private bytesSinceSnapshot = 0;
  private legacyFiles = false;
  private timer?: NodeJS.Timeout;
  private snapshotting?: Promise<void>;
  private readonly intervalMs: number;
  private readonly journalLimit: number;

  constructor(
    private readonly dataDir: string,
    private readonly logger: EmbeddedMongoLogger,
    settings: JournalSettings = {},
  ) {
    this.intervalMs = settings.snapshotIntervalMs ?? 60_000;
    this.journalLimit = settings.snapshotJournalBytes ?? 64 * 1024 * 1024;
  }

  async load(): Promise<PersistedCollection[]> {
    await fs.mkdir(this.dataDir, { recursive: true });
    this.releaseLock = await acquireDataDirLock(this.dataDir, this.logger);
    try {
      const recovery = await recover(this.dataDir, this.logger);
      this.writer = new JournalWriter(this.dataDir, recovery.nextGeneration);
      this.bytesSinceSnapshot = recovery.replayedBytes;
      this.legacyFiles = recovery.legacyFiles;
      this.recoveredHistory = recovery.history;
      this.timer = setInterval(() => this.snapshotIfNeeded(), this.intervalMs);
      this.timer.unref();
      return recovery.collections;
    } catch (error) {
      await this.releaseLock();
      throw error;
    }
  }

  attach(view: CatalogView): void {
    this.view = view;
  }

  keepHistory(window: HistoryWindow): Document[] {
    this.historyWindow = window;
    const recovered = this.recoveredHistory;
    this.recoveredHistory = [];
    return recovered;
  }

  record(event: WriteEvent): void {
    this.pendingEvents.push(encodeEvent(event));
  }

  /**
   * Everything recorded since the last call and the command's history become one record: a command, or a whole
   * transaction.
   */
  commit(history?: readonly Document[]): Promise<void> | undefined {
    if (history) for (const entry of history) this.pendingEvents.push(encodeHistoryEntry(entry));
    if (this.pendingEvents.length === 0 || !this.writer) return undefined;
    const record = frameRecord(this.pendingEvents);
    this.pendingEvents = [];
    this.bytesSinceSnapshot += record.length;
    const durable = this.writer.append(record);
    if (this.bytesSinceSnapshot >= this.journalLimit) this.snapshotIfNeeded();
    return durable;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    // A clean stop leaves one snapshot and no journal: the next start has nothing to replay.
    while (this.snapshotting) await this.snapshotting;
    if (this.writer && !this.writer.failed) {
      this.snapshotIfNeeded();
      await this.snapshotting;
    }
    await this.writer?.close();
    await this.releaseLock?.();
  }

  private snapshotIfNeeded(): void {
    if (this.snapshotting || !this.view || !this.writer || this.writer.failed) return;
    if (this.bytesSinceSnapshot === 0 && !this.legacyFiles) return;
    // Capture and rotation happen together, synchronously: the snapshot holds exactly the
    // effects (and the history) of the records in generations up to `covered`.
    const collections = this.view.snapshotAll();
    // Before the history is attached (or never, on a standalone) the recovered one is kept as it is, as mongod keeps
    // its oplog.
    const history = this.historyWindow?.() ?? this.recoveredHistory;
    const covered = this.writer.rotate();
    this.bytesSinceSnapshot = 0;
    this.snapshotting = this.compact(collections, history, covered)
      .catch((error: Error) => {
        this.bytesSinceSnapshot = Math.max(this.bytesSinceSnapshot, 1); // try again next interval
        this.logger.error('snapshot failed; the journal keeps everything', { error: error.message });
      })
      .finally(() => {
        this.snapshotting = undefined;
      });
  }

  private async compact(collections: PersistedCollection[], history: Document[], covered: number): Promise<void> {
    await writeSnapshot(this.dataDir, { journalGeneration: covered, collections, history });
    for (const journal of await listJournals(this.dataDir)) {
      if (journal.generation <= covered) await fs.rm(journal.file, { force: true });
    }
    if (this.legacyFiles) await removeLegacyCollections(this.dataDir);
    this.legacyFiles = false;
    this.logger.info('snapshot written, journal compacted', {
      journalGeneration: covered,
      collections: collections.length,
    });
  }
}
