import { consoleWarningsLogger, type EmbeddedMongoLogger } from './base/logger';
import { DEFAULT_REPLICA_SET_NAME } from './base/server-identity';
import { ChangeStreamHub } from './change-streams/change-stream-hub';
import { preparePrivateSocket, socketUrl, type PrivateSocket } from './private-socket';
import { WireServer } from './server';
import { Catalog } from './storage/catalog';
import { JournalStorageEngine } from './storage/journal-storage-engine';
import { MemoryStorageEngine } from './storage/memory-storage-engine';
import type { StorageEngine } from './storage/storage-engine';

export interface EmbeddedMongoOptions {
  /**
   * Listen only on a Unix socket that no other user can reach (no TCP, no port): a 0600 socket in
   * a 0700 folder, `<dataDir>/embedded-mongo-socket/` or a private temporary folder (`:memory:`,
   * or a dataDir too long for a socket path), removed on stop. The server has no authentication:
   * this is how an application keeps other local users away from its data. Excludes host, port
   * and socketPath.
   */
  readonly privateSocket?: boolean;
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
  /** The name of the one-member replica set this server reports (default `rs0`). */
  readonly replicaSetName?: string;
  /**
   * Report a standalone instead of a replica set, as this server did before: then, as mongod,
   * transactions, retryable writes and change streams are refused, and no change history is kept.
   */
  readonly standalone?: boolean;
  /**
   * Change streams read a bounded history of recent changes (the oplog): at most this many bytes (default 32 MiB)...
   */
  readonly changeStreamHistoryBytes?: number;
  /** ...and at most this many changes (default 100,000). With a dataDir the history survives restarts. */
  readonly changeStreamHistoryEvents?: number;
}

export interface EmbeddedMongo {
  /**
   * A connection string for the official driver, e.g. `mongodb://127.0.0.1:53117/` or
   * `mongodb://%2Fdata%2Fembedded-mongo-socket%2Fembedded-mongo.sock/`; its host is the replica-set
   * member name `hello` reports, so the driver discovers the set with or without `?replicaSet=`
   * (a socket path with capitals gets `?directConnection=true`: the driver lower-cases member names).
   */
  readonly url: string;
  /** The TCP port; absent with `privateSocket`. */
  readonly port?: number;
  stop(): Promise<void>;
}

/** Starts the MongoDB-compatible server and resolves once it accepts connections. */
export async function startEmbeddedMongo(options: EmbeddedMongoOptions = {}): Promise<EmbeddedMongo> {
  if (
    options.privateSocket &&
    (options.host !== undefined || options.port !== undefined || options.socketPath !== undefined)
  ) {
    throw new Error('privateSocket listens on a private Unix socket only: host, port and socketPath do not apply');
  }
  if (options.standalone && options.replicaSetName !== undefined)
    throw new Error('standalone reports no replica set: replicaSetName does not apply');
  const host = options.host ?? '127.0.0.1';
  const logger = options.logger ?? consoleWarningsLogger;
  const engine = createEngine(options, logger);
  const catalog = new Catalog(engine);
  const restored = await engine.load(); // a failed load releases the dataDir lock itself
  let server: WireServer | undefined;
  let changeStreams: ChangeStreamHub | undefined;
  let socket: PrivateSocket | undefined;
  let url: string;
  let port: number | undefined;
  try {
    catalog.restore(restored);
    if (!options.standalone) {
      const limits = { maxBytes: options.changeStreamHistoryBytes, maxEvents: options.changeStreamHistoryEvents };
      changeStreams = await ChangeStreamHub.open(catalog, engine, { dataDir: dataDirOf(options), limits, logger });
    }
    server = new WireServer({
      catalog,
      engine,
      logger,
      cursorTimeoutMs: options.cursorTimeoutMs,
      transactionTimeoutMs: options.transactionTimeoutMs,
      replicaSet: changeStreams
        ? { name: options.replicaSetName ?? DEFAULT_REPLICA_SET_NAME, changeStreams }
        : undefined,
    });
    if (options.privateSocket) {
      // after the lock: a stale socket there is a killed server's
      socket = await preparePrivateSocket(dataDirOf(options));
      await server.listenUnix(socket.path);
      await socket.restrict();
      // A path with capitals (such a dataDir, or macOS's temporary folder) can match no member name: connect directly.
      url = socketUrl(socket.path, options.standalone);
    } else {
      port = await server.listenTcp(host, options.port ?? 0);
      if (options.socketPath) await server.listenUnix(options.socketPath);
      // Bound to every interface, clients are told loopback: the member name they then find in `hosts`.
      const reachable = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
      url = `mongodb://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}/`;
    }
  } catch (error) {
    // A failed start (a busy port, say) leaves the dataDir unlocked for the next attempt.
    await server?.close().catch(() => undefined);
    await socket?.remove().catch(() => undefined);
    changeStreams?.close();
    await engine
      .close()
      .catch((closeError: Error) =>
        logger.error('closing storage after a failed start failed', { error: closeError.message }),
      );
    throw error;
  }
  const listening = server;
  logger.info('embedded mongo listening', { url, dataDir: options.dataDir ?? ':memory:' });
  let stopping: Promise<void> | undefined;
  return {
    url,
    port,
    // The socket goes before the lock is released, never after another server has taken the folder.
    stop: () => {
      stopping ??= listening
        .close()
        .then(() => socket?.remove())
        .then(() => changeStreams?.close())
        .then(() => engine.close());
      return stopping;
    },
  };
}

function dataDirOf(options: EmbeddedMongoOptions): string | undefined {
  return options.dataDir && options.dataDir !== ':memory:' ? options.dataDir : undefined;
}

function createEngine(options: EmbeddedMongoOptions, logger: EmbeddedMongoLogger): StorageEngine {
  const dataDir = dataDirOf(options);
  if (!dataDir) return new MemoryStorageEngine();
  return new JournalStorageEngine(dataDir, logger, {
    snapshotIntervalMs: options.snapshotIntervalMs,
    snapshotJournalBytes: options.snapshotJournalBytes,
  });
}
