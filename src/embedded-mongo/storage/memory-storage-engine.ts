import type { StorageEngine } from './storage-engine';

/** Keeps nothing: the `:memory:` mode and the default without a dataDir. */
export class MemoryStorageEngine implements StorageEngine {
  async load(): Promise<[]> {
    return [];
  }

  attach(): void {}

  record(): void {}

  commit(): undefined {
    return undefined;
  }

  async close(): Promise<void> {}
}
