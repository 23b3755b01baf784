import { promises as fs } from 'node:fs';
import path from 'node:path';

/** File names inside a dataDir. Collections of part 1 live in per-database folders, never at the top. */
export const LOCK_FILE = 'mongod.lock';
export const SNAPSHOT_FILE = 'snapshot.bson';
export const SNAPSHOT_TEMP_FILE = 'snapshot.bson.tmp';
const JOURNAL_PATTERN = /^journal-(\d{10})\.log$/;

export function journalFileName(generation: number): string {
  return `journal-${String(generation).padStart(10, '0')}.log`;
}

/** Journal generations present in the folder, oldest first. */
export async function listJournals(dataDir: string): Promise<Array<{ generation: number; file: string }>> {
  const journals: Array<{ generation: number; file: string }> = [];
  for (const name of await fs.readdir(dataDir)) {
    const match = JOURNAL_PATTERN.exec(name);
    if (match) journals.push({ generation: Number(match[1]), file: path.join(dataDir, name) });
  }
  return journals.sort((a, b) => a.generation - b.generation);
}

/** Makes a created, renamed or deleted entry itself durable, not only the file's content. */
export async function syncDirectory(dir: string): Promise<void> {
  if (process.platform === 'win32') return; // directories cannot be opened for fsync there
  const handle = await fs.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
