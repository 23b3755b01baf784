import type { EmbeddedMongo, EmbeddedMongoOptions } from './start-embedded-mongo';

export type { EmbeddedMongo, EmbeddedMongoOptions } from './start-embedded-mongo';
export type { EmbeddedMongoLogger } from './logger';
export type { StorageEngine, WriteEvent, PersistedCollection } from './storage/storage-engine';

/**
 * Starts an embedded MongoDB-compatible server (see `EmbeddedMongoOptions`). The server itself
 * (wire protocol, query engine, storage: about 9 MB of resident memory) loads with the first
 * start, so importing the package does not pay for it.
 */
export function startEmbeddedMongo(options?: EmbeddedMongoOptions): Promise<EmbeddedMongo> {
  const server = require('./start-embedded-mongo') as typeof import('./start-embedded-mongo');
  return server.startEmbeddedMongo(options);
}
