import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { MongoClient, type Db, type ServerHeartbeatFailedEvent } from 'mongodb';
import { startEmbeddedMongo, type EmbeddedMongoLogger } from '../embedded-mongo';
import type { LoggerPort } from '../ports/logger.port';
import type { AppConfig } from './app-config';

export interface DatabaseConnection {
  readonly db: Db;
  readonly client: MongoClient;
  /** True when the database answers a ping (readiness). */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

/** The database the application uses on its embedded server (with `MONGODB_URL`: the URL's own). */
export const EMBEDDED_DATABASE_NAME = 'app';

/** Pause between start-up attempts while the database is not answering yet. */
const RETRY_PAUSE_MS = 250;

/**
 * Connects the driver to `MONGODB_URL`, or starts the embedded server (keeping its files in
 * `DATA_DIR`; in a worker thread, logging through `logger`; on a Unix socket only this user can
 * open) and connects to that. If that
 * thread dies, the process exits with one logged line (see `exitOnDatabaseCrash`). Start-up
 * retries until `databaseTimeoutMs`, then fails with one clear line. At run time every operation waits at most
 * `databaseOperationTimeoutMs` for an unreachable database (the adapter turns that into 503) and the driver reconnects
 * by itself when the database returns.
 */
export async function connectDatabase(config: AppConfig, logger: LoggerPort): Promise<DatabaseConnection> {
  const embedded = config.mongodbUrl
    ? undefined
    : await startEmbeddedMongo({
        // No TCP port: the server has no authentication, so only this user may reach it.
        privateSocket: true,
        dataDir: config.dataDir === ':memory:' ? undefined : path.resolve(config.dataDir),
        logger: embeddedMongoLog(logger),
        maxHeapMb: config.embeddedMaxHeapMb,
        changeStreamHistoryEvents: config.embeddedChangeHistoryEvents,
        onCrash: (error) => exitOnDatabaseCrash(logger, error),
      });
  const url = config.mongodbUrl ?? embedded!.url;
  const timeout = config.databaseOperationTimeoutMs;
  const client = new MongoClient(url, {
    serverSelectionTimeoutMS: timeout,
    connectTimeoutMS: timeout,
    socketTimeoutMS: Math.max(timeout * 10, 30_000),
  });
  const db = client.db(config.mongodbUrl ? undefined : EMBEDDED_DATABASE_NAME);
  // The monitor's last failure says why (e.g. ECONNREFUSED) when the deadline cuts a ping short.
  let lastFailure: Error | undefined;
  const noteFailure = (event: ServerHeartbeatFailedEvent) => (lastFailure = event.failure);
  client.on('serverHeartbeatFailed', noteFailure);
  try {
    await waitUntilReachable(db, config.databaseTimeoutMs);
  } catch (error) {
    await client.close().catch(() => undefined);
    await embedded?.stop();
    const reason = ((error as Error).name === 'StartupDeadline' && lastFailure ? lastFailure : (error as Error))
      .message;
    throw new Error(
      `Could not reach the database${config.mongodbUrl ? ' at MONGODB_URL' : ''} within ${config.databaseTimeoutMs} ` +
        `ms: ${reason}`,
    );
  } finally {
    client.off('serverHeartbeatFailed', noteFailure);
  }
  logger.info(
    { database: config.mongodbUrl ? 'MONGODB_URL' : 'embedded', dataDir: embedded ? config.dataDir : undefined },
    'database connected',
  );
  return {
    db,
    client,
    ping: () =>
      db.command({ ping: 1 }).then(
        () => true,
        () => false,
      ),
    close: async () => {
      await client.close();
      await embedded?.stop();
    },
  };
}

/** The embedded server's records in the application's log stream, marked as its own. */
function embeddedMongoLog(logger: LoggerPort): EmbeddedMongoLogger {
  const component = 'embedded-mongo';
  return {
    info: (message, meta) => logger.info({ component, ...meta }, message),
    warn: (message, meta) => logger.warn({ component, ...meta }, message),
    error: (message, meta) => logger.error({ component, ...meta }, message),
  };
}

/**
 * The embedded database's thread died (an uncaught error, out of memory): every request would
 * fail from now on, so the process ends with one line and exit code 1 for its supervisor to
 * restart it (the journal keeps every acknowledged write).
 */
function exitOnDatabaseCrash(logger: LoggerPort, error: Error): void {
  logger.error(
    { component: 'embedded-mongo', error: error.message },
    'the embedded database stopped unexpectedly; exiting',
  );
  process.exit(1);
}

/**
 * Pings until one answers or the deadline passes. Each ping is raced against the deadline: the
 * driver ignores a per-operation `timeoutMS` and waits `serverSelectionTimeoutMS` (the
 * operation timeout), which may be longer than the start-up budget.
 */
async function waitUntilReachable(db: Db, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (let attempt = 1; ; attempt++) {
    try {
      await beforeDeadline(db.command({ ping: 1 }), deadline);
      return;
    } catch (error) {
      if (Date.now() + RETRY_PAUSE_MS >= deadline || attempt >= 10_000) throw error;
      await sleep(RETRY_PAUSE_MS);
    }
  }
}

function beforeDeadline<T>(operation: Promise<T>, deadline: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expiry = new Promise<never>((_resolve, reject) => {
    const error = Object.assign(new Error('no answer'), { name: 'StartupDeadline' });
    timer = setTimeout(() => reject(error), Math.max(0, deadline - Date.now()));
  });
  // The losing ping is abandoned; closing the client ends it.
  operation.catch(() => undefined);
  return Promise.race([operation, expiry]).finally(() => clearTimeout(timer));
}
