import { promises as fs } from 'node:fs';
import type { EmbeddedMongoLogger } from '../base/logger';
import type { Document } from 'bson';
import { decodeRecord } from './journal-codec';
import { listJournals } from './journal-files';
import { scanRecords } from './journal-record';
import { hasLegacyCollections, loadLegacyCollections } from './legacy-snapshot';
import { RecoveredState } from './recovered-state';
import { readSnapshot } from './snapshot-file';
import type { PersistedCollection } from './storage-engine';

export interface Recovery {
  readonly collections: PersistedCollection[];
  /** The change-stream history: the snapshot's window, then what the journals add, oldest first. */
  readonly history: Document[];
  /** The first journal generation this run may write. */
  readonly nextGeneration: number;
  /** Journal bytes replayed: a reason to take a fresh snapshot soon. */
  readonly replayedBytes: number;
  /** Part-1 per-collection files are present and go away after the next snapshot. */
  readonly legacyFiles: boolean;
}

/**
 * Start-up: the snapshot (or part-1 files when there is none), then every newer journal in
 * order; the change-stream history the same way. A journal whose tail is torn or fails its checksum is cut back to its
 * last whole record, with a warning; journals after a damaged one cannot be trusted and are set aside.
 */
export async function recover(dataDir: string, logger: EmbeddedMongoLogger): Promise<Recovery> {
  const snapshot = await readSnapshot(dataDir);
  const legacyFiles = await hasLegacyCollections(dataDir);
  const base = snapshot?.collections ?? (legacyFiles ? await loadLegacyCollections(dataDir) : []);
  const covered = snapshot?.journalGeneration ?? 0;
  const state = new RecoveredState(base);
  const history = [...(snapshot?.history ?? [])];
  let replayedBytes = 0;
  let lastGeneration = covered;
  let damaged = false;
  for (const journal of await listJournals(dataDir)) {
    lastGeneration = Math.max(lastGeneration, journal.generation);
    if (journal.generation <= covered) {
      await fs.rm(journal.file, { force: true }); // left over from a compaction cut short
      continue;
    }
    if (damaged) {
      logger.error('journal after a damaged one is not replayed; set aside', { file: journal.file });
      await fs.rename(journal.file, `${journal.file}.unreplayed`);
      continue;
    }
    const bytes = await fs.readFile(journal.file);
    const scan = scanRecords(bytes);
    for (const payload of scan.payloads) {
      const record = decodeRecord(payload);
      for (const event of record.events) state.apply(event);
      for (const entry of record.history) history.push(entry);
    }
    replayedBytes += scan.validLength;
    if (scan.damage) {
      damaged = true;
      logger.warn('journal tail is torn or corrupt; cut off, everything before it recovered', {
        file: journal.file,
        reason: scan.damage,
        recoveredRecords: scan.payloads.length,
        discardedBytes: bytes.length - scan.validLength,
      });
      await fs.truncate(journal.file, scan.validLength);
    }
  }
  return {
    collections: state.toCollections(),
    history,
    nextGeneration: lastGeneration + 1,
    replayedBytes,
    legacyFiles,
  };
}
