import path from 'node:path';
import { MongoClient, type Db } from 'mongodb';
import { startEmbeddedMongo } from '../embedded-mongo';
import type { LoggerPort } from '../ports/logger.port';
import type { AppConfig } from './app-config';

export interface DatabaseConnection {
  readonly db: Db;
  readonly client: MongoClient;
  /** True when the database answers a ping (readiness). */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * Connects the driver to `MONGODB_URL`, or starts the embedded server (keeping its files in
 * `DATA_DIR`) and connects to that. Fails with one clear line when the database cannot be
 * reached within `databaseTimeoutMs`.
 */
export async function connectDatabase(config: AppConfig, logger: LoggerPort): Promise<DatabaseConnection> {
  const embedded = config.mongodbUrl
    ? undefined
    : await startEmbeddedMongo({ host: '127.0.0.1', port: 0, dataDir: config.dataDir === ':memory:' ? undefined : path.resolve(config.dataDir) });
  const url = config.mongodbUrl ?? `${embedded!.url.replace(/\/$/, '')}/app`;
  const client = new MongoClient(url, { serverSelectionTimeoutMS: config.databaseTimeoutMs, connectTimeoutMS: config.databaseTimeoutMs });
  try {
    await client.connect();
    await client.db().command({ ping: 1 });
  } catch (error) {
    await client.close().catch(() => undefined);
    await embedded?.stop();
    throw new Error(`Could not reach the database${config.mongodbUrl ? ' at MONGODB_URL' : ''} within ${config.databaseTimeoutMs} ms: ${(error as Error).message}`);
  }
  logger.info({ database: config.mongodbUrl ? 'MONGODB_URL' : 'embedded', dataDir: embedded ? config.dataDir : undefined }, 'database connected');
  return {
    db: client.db(config.mongodbUrl ? undefined : 'app'),
    client,
    ping: () => client.db().command({ ping: 1 }).then(() => true, () => false),
    close: async () => {
      await client.close();
      await embedded?.stop();
    },
  };
}
