import { consoleWarningsLogger, type EmbeddedMongoLogger } from './logger';
import { WireServer } from './server';
import { Catalog } from './storage/catalog';
import { MemoryStorageEngine } from './storage/memory-storage-engine';
import { SnapshotStorageEngine } from './storage/snapshot-storage-engine';
import type { StorageEngine } from './storage/storage-engine';

export interface EmbeddedMongoOptions {
  /** Interface to bind; default 127.0.0.1. */
  readonly host?: string;
  /** 0 (default) picks a free port. */
  readonly port?: number;
  /** Also listen on this unix socket. */
  readonly socketPath?: string;
  /** Where data is kept; absent or ':memory:' keeps nothing. */
  readonly dataDir?: string;
  readonly logger?: EmbeddedMongoLogger;
  /** Idle server-side cursors are closed after this long (default 10 minutes, as mongod). */
  readonly cursorTimeoutMs?: number;
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
  const engine = createEngine(options.dataDir);
  const catalog = new Catalog(engine);
  catalog.restore(await engine.load());
  const server = new WireServer({ catalog, engine, logger, cursorTimeoutMs: options.cursorTimeoutMs });
  const port = await server.listenTcp(host, options.port ?? 0);
  if (options.socketPath) await server.listenUnix(options.socketPath);
  const url = `mongodb://${host.includes(':') ? `[${host}]` : host}:${port}/`;
  logger.info('embedded mongo listening', { url, dataDir: options.dataDir ?? ':memory:' });
  let stopping: Promise<void> | undefined;
  return {
    url,
    port,
    stop: () => {
      stopping ??= server.close().then(() => engine.close());
      return stopping;
    },
  };
}

function createEngine(dataDir: string | undefined): StorageEngine {
  return !dataDir || dataDir === ':memory:' ? new MemoryStorageEngine() : new SnapshotStorageEngine(dataDir);
}
