import type { EmbeddedMongo, EmbeddedMongoOptions } from './start-embedded-mongo';

export type { EmbeddedMongo, EmbeddedMongoOptions } from './start-embedded-mongo';
export type { EmbeddedMongoLogger } from './base/logger';
export type { StorageEngine, WriteEvent, PersistedCollection } from './storage/storage-engine';

export interface HostedEmbeddedMongoOptions extends EmbeddedMongoOptions {
  /**
   * The server runs in a worker thread; if that thread dies while serving (an uncaught error,
   * out of memory), this is called. Default: one line through `logger.error`, then the process
   * exits with code 1 (a database that vanished silently would fail every request instead).
   */
  readonly onCrash?: (error: Error) => void;
  /** Caps the worker's heap (MB): a runaway query ends the database thread, not the host's heap. */
  readonly maxHeapMb?: number;
}

/**
 * Starts an embedded MongoDB-compatible server (see `EmbeddedMongoOptions`) in a worker thread of
 * this process, so that its work never blocks this event loop; log records are forwarded to
 * `options.logger`. The server itself (wire protocol, query engine, storage) loads in that thread.
 */
export function startEmbeddedMongo(options: HostedEmbeddedMongoOptions = {}): Promise<EmbeddedMongo> {
  const { onCrash, maxHeapMb, ...serverOptions } = options;
  const { startInWorker } = require('./hosting/start-in-worker') as typeof import('./hosting/start-in-worker');
  return startInWorker(serverOptions, { onCrash: onCrash ?? ((error) => exitOnCrash(options, error)), maxHeapMb });
}

function exitOnCrash(options: EmbeddedMongoOptions, error: Error): void {
  const report = options.logger?.error ?? ((message: string) => console.error(`[embedded-mongo] ${message}`));
  report(`the embedded database stopped unexpectedly (${error.message}); exiting`);
  process.exit(1);
}
