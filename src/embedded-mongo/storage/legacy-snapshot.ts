import { promises as fs } from 'node:fs';
import path from 'node:path';
import { SnapshotStorageEngine } from './snapshot-storage-engine';
import type { PersistedCollection } from './storage-engine';

const LEGACY_SUFFIXES = ['.meta.json', '.bson', '.meta.json.tmp', '.bson.tmp'];

/** Part 1 kept one folder per database with `<collection>.bson` + `.meta.json`; a dataDir may still hold them. */
export async function hasLegacyCollections(dataDir: string): Promise<boolean> {
  for (const folder of await databaseFolders(dataDir)) {
    if ((await fs.readdir(folder)).some((file) => file.endsWith('.meta.json'))) return true;
  }
  return false;
}

export function loadLegacyCollections(dataDir: string): Promise<PersistedCollection[]> {
  return new SnapshotStorageEngine(dataDir).load();
}

/** Called once a snapshot holds their contents. Other files the application keeps in dataDir stay. */
export async function removeLegacyCollections(dataDir: string): Promise<void> {
  for (const folder of await databaseFolders(dataDir)) {
    const files = await fs.readdir(folder);
    if (!files.some((file) => file.endsWith('.meta.json'))) continue;
    for (const file of files) {
      if (LEGACY_SUFFIXES.some((suffix) => file.endsWith(suffix)))
        await fs.rm(path.join(folder, file), { force: true });
    }
    await fs.rmdir(folder).catch(() => undefined); // only when now empty
  }
}

async function databaseFolders(dataDir: string): Promise<string[]> {
  const entries = await fs.readdir(dataDir, { withFileTypes: true });
  return entries.filter((entry) => entry.isDirectory()).map((entry) => path.join(dataDir, entry.name));
}
