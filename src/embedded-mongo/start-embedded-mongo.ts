import { consoleWarningsLogger, type EmbeddedMongoLogger } from './logger';
import { WireServer } from './server';
import { Catalog } from './storage/catalog';
import { JournalStorageEngine } from './storage/journal-storage-engine';
import { MemoryStorageEngine } from './storage/memory-storage-engine';
import type { StorageEngine } from './storage/storage-engine';

export interface EmbeddedMongoOptions {
  /** Interface to bind; default 127.0.0.1. */
  readonly host?: string;
  /** 0 (default) picks a free port. */
  readonly port?: number;
  /** Also listen on this unix socket. */
  readonly socketPath?: string;
  /**
   * Where data is kept; absent or ':memory:' keeps nothing. With a folder, every acknowledged
   * write is fsynced to its journal before the reply, and one server at a time may use it.
   */
  readonly dataDir?: string;
  readonly logger?: EmbeddedMongoLogger;
  /** Idle server-side cursors are closed after this long (default 10 minutes, as mongod). */
  readonly cursorTimeoutMs?: number;
  /** Open transactions idle longer than this are aborted (default 60 s, as mongod). */
  readonly transactionTimeoutMs?: number;
  /** With a dataDir: a snapshot (and journal compaction) this often when anything changed (default 60 s). */
  readonly snapshotIntervalMs?: number;
  /** With a dataDir: ...and whenever the journal grows past this many bytes (default 64 MiB). */
  readonly snapshotJournalBytes?: number;
}

export interface EmbeddedMongo {
  /** A connection string for the official driver, e.g. `mongodb://127.0.0.1:53117/`. */
  readonly url: string;
  readonly port: number;
  stop(): Promise<void>;
}

/** Starts the MongoDB-compatible server and resolves once it accepts connections. */
export async function startEmbeddedMongo(options: EmbeddedMongoOptions = {}): Promise<EmbeddedMongo> {
  const host = options.host ?? '127.0.0.1';
  const logger = options.logger ?? consoleWarningsLogger;
  const engine = createEngine(options, logger);
  const catalog = new Catalog(engine);
  const restored = await engine.load(); // a failed load releases the dataDir lock itself
  let server: WireServer | undefined;
  let port: number;
  try {
    catalog.restore(restored);
    server = new WireServer({ catalog, engine, logger, cursorTimeoutMs: options.cursorTimeoutMs, transactionTimeoutMs: options.transactionTimeoutMs });
    port = await server.listenTcp(host, options.port ?? 0);
    if (options.socketPath) await server.listenUnix(options.socketPath);
  } catch (error) {
    // A failed start (a busy port, say) leaves the dataDir unlocked for the next attempt.
    await server?.close().catch(() => undefined);
    await engine.close().catch((closeError: Error) => logger.error('closing storage after a failed start failed', { error: closeError.message }));
    throw error;
  }
  const listening = server;
  const url = `mongodb://${host.includes(':') ? `[${host}]` : host}:${port}/`;
  logger.info('embedded mongo listening', { url, dataDir: options.dataDir ?? ':memory:' });
  let stopping: Promise<void> | undefined;
  return {
    url,
    port,
    stop: () => {
      stopping ??= listening.close().then(() => engine.close());
      return stopping;
    },
  };
}

function createEngine(options: EmbeddedMongoOptions, logger: EmbeddedMongoLogger): StorageEngine {
  const { dataDir } = options;
  if (!dataDir || dataDir === ':memory:') return new MemoryStorageEngine();
  return new JournalStorageEngine(dataDir, logger, { snapshotIntervalMs: options.snapshotIntervalMs, snapshotJournalBytes: options.snapshotJournalBytes });
}
