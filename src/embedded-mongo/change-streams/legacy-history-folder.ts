import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Document } from 'bson';
import type { EmbeddedMongoLogger } from '../base/logger';
import { listJournals } from '../storage/journal-files';
import { scanRecords } from '../storage/journal-record';
import { decodeStoredSequence } from '../storage/stored-bson';

/** Where earlier versions kept the window, in files of its own: `<dataDir>/change-stream-history/journal-*.log`. */
const LEGACY_FOLDER = 'change-stream-history';

/**
 * The history entries a data folder of an earlier version holds in its own folder (now they go
 * into the catalog's journal and snapshots), or undefined when there is no such folder. A torn
 * tail is cut off with a warning, as the journal's.
 */
export async function readLegacyHistory(dataDir: string, logger: EmbeddedMongoLogger): Promise<Document[] | undefined> {
  const folder = path.join(dataDir, LEGACY_FOLDER);
  const journals = await listJournals(folder).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (!journals) return undefined;
  const entries: Document[] = [];
  for (const journal of journals) {
    const scan = scanRecords(await fs.readFile(journal.file));
    for (const payload of scan.payloads) entries.push(...decodeStoredSequence(payload));
    if (scan.damage)
      logger.warn('change-stream history tail is torn; cut off', { file: journal.file, reason: scan.damage });
  }
  return entries;
}

/** Once its entries are in the journal. */
export async function removeLegacyHistory(dataDir: string): Promise<void> {
  await fs.rm(path.join(dataDir, LEGACY_FOLDER), { recursive: true, force: true });
}
