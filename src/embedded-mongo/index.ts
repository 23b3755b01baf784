export { startEmbeddedMongo } from './start-embedded-mongo';
export type { EmbeddedMongo, EmbeddedMongoOptions } from './start-embedded-mongo';
export type { EmbeddedMongoLogger } from './logger';
export type { StorageEngine, WriteEvent, PersistedCollection } from './storage/storage-engine';
