import { createServer, type Server, type Socket } from 'node:net';
import { ObjectId, type Document } from 'bson';
import { errorReply } from './base/command-error';
import { awaitingReply } from './await-data';
import type { ChangeStreamHub } from './change-streams/change-stream-hub';
import { clusterTimeElements } from './commands/cluster-time';
import type { CommandContext, ServerInfo } from './commands/command-context';
import { publishChanges } from './commands/publish-changes';
import { standaloneRefusal } from './commands/standalone-refusals';
import { tcpMemberAddress, unixMemberAddress, type MemberAddress } from './member-address';
import { CursorRegistry } from './cursor-registry';
import { SessionRegistry } from './session-registry';
import { runSessionCommand } from './commands/run-in-session';
import { runWriteOnce } from './commands/run-write-once';
import { ServerParameters } from './commands/server-parameters';
import { TransactionManager } from './transactions/transaction-manager';
import { TtlMonitor } from './ttl-monitor';
import type { EmbeddedMongoLogger } from './base/logger';
import type { Catalog } from './storage/catalog';
import type { StorageEngine } from './storage/storage-engine';
import { WireConnection, type Reply } from './wire-connection';

export interface WireServerOptions {
  readonly catalog: Catalog;
  readonly engine: StorageEngine;
  readonly logger: EmbeddedMongoLogger;
  readonly cursorTimeoutMs?: number;
  /** Open transactions idle longer than this are aborted. */
  readonly transactionTimeoutMs?: number;
  /** The one-member replica set this server is, with its clock and change streams; absent: a standalone. */
  readonly replicaSet?: { readonly name: string; readonly changeStreams: ChangeStreamHub };
}

/** A one-member set never holds another election: term 1, as mongod encodes it (0x7fffffff then the term). */
const ELECTION_ID = new ObjectId('7fffffff0000000000000001');

/** Accepts connections (TCP, a unix socket, or both) and routes their commands to the catalog. */
export class WireServer {
  private readonly servers: Server[] = [];
  private readonly connections = new Map<number, WireConnection>();
  /** Each connection's member name (see member-address.ts). */
  private readonly memberAddresses = new Map<number, string>();
  private readonly cursors: CursorRegistry;
  private readonly sessions: SessionRegistry;
  private readonly info: ServerInfo;
  private readonly ttlMonitor: TtlMonitor;
  private connectionCount = 0;
  private hostLabel?: string;

  constructor(private readonly options: WireServerOptions) {
    this.cursors = new CursorRegistry(options.cursorTimeoutMs);
    this.sessions = new SessionRegistry(new TransactionManager(options.catalog, options.transactionTimeoutMs));
    this.info = {
      startedAt: new Date(),
      host: () => this.hostLabel ?? 'localhost',
      currentConnections: () => this.connections.size,
      totalConnections: () => this.connectionCount,
      parameters: new ServerParameters(),
      ...(options.replicaSet ? { replicaSet: { name: options.replicaSet.name, electionId: ELECTION_ID } } : {}),
    };
    this.ttlMonitor = new TtlMonitor({
      catalog: options.catalog,
      parameters: this.info.parameters,
      run: (command, db) => this.runInternal(command, db),
      logger: options.logger,
    });
  }

  /** Listens on TCP; returns the bound port (useful with port 0). */
  async listenTcp(host: string, port: number): Promise<number> {
    const server = await this.listen((s, done) => s.listen(port, host, done), tcpMemberAddress(host));
    const address = server.address();
    const bound = typeof address === 'object' && address ? address.port : port;
    this.hostLabel = `${host}:${bound}`;
    return bound;
  }

  async listenUnix(socketPath: string): Promise<void> {
    await this.listen((s, done) => s.listen(socketPath, done), unixMemberAddress(socketPath));
    this.hostLabel ??= socketPath; // as mongod, a TCP address names the server first
  }

  async close(): Promise<void> {
    for (const connection of this.connections.values()) connection.close();
    await Promise.all(this.servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
    this.ttlMonitor.close();
    this.cursors.close();
    this.sessions.close();
  }

  private listen(start: (server: Server, done: () => void) => void, memberAddress: MemberAddress): Promise<Server> {
    const server = createServer((socket) => this.accept(socket, memberAddress(socket)));
    this.servers.push(server);
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      start(server, () => {
        server.off('error', reject);
        server.on('error', (error) => this.options.logger.error('listener error', { error: error.message }));
        resolve(server);
      });
    });
  }

  private accept(socket: Socket, memberAddress: string): void {
    const id = ++this.connectionCount;
    const connection = new WireConnection(
      socket,
      id,
      (command, db, connectionId) => this.run(command, db, connectionId),
      this.options.logger,
    );
    this.connections.set(id, connection);
    this.memberAddresses.set(id, memberAddress);
    socket.on('close', () => {
      this.connections.delete(id);
      this.memberAddresses.delete(id);
    });
  }

  /** A command of the server's own (no connection): its reply once its writes are durable. */
  private async runInternal(command: Document, db: string): Promise<Document> {
    const { reply, durable } = this.run(command, db, 0);
    const { document } = await reply;
    await durable;
    return document;
  }

  /**
   * One command: a standalone refuses transaction numbers; a replica set runs a retryable write
   * once per transaction number, publishes the command's writes as changes (durable in the same
   * journal write as the writes; the reply waits for it), lets a getMore on a change stream wait
   * for data, and stamps the cluster time on the reply.
   */
  private run(
    command: Document,
    db: string,
    connectionId: number,
  ): { reply: Reply | Promise<Reply>; durable?: Promise<void> } {
    const changeStreams = this.options.replicaSet?.changeStreams;
    const context: CommandContext = {
      db,
      catalog: this.options.catalog,
      cursors: this.cursors,
      sessions: this.sessions,
      connectionId,
      server: this.info,
      logger: this.options.logger,
      memberAddress: this.memberAddresses.get(connectionId) ?? this.info.host(),
      changeStreams,
    };
    if (!changeStreams) {
      const refusal = standaloneRefusal(command);
      return {
        reply: { document: refusal ? errorReply(refusal) : runSessionCommand(command, context) },
        durable: this.options.engine.commit(),
      };
    }
    const { reply, durable } = runWriteOnce(command, this.sessions.transactions, () => {
      const document = runSessionCommand(command, context);
      return { reply: document, durable: this.options.engine.commit(publishChanges(changeStreams, command, document)) };
    });
    const final = awaitingReply(command, reply, this.cursors, changeStreams, () => runSessionCommand(command, context));
    const stamped = (document: Document): Reply => ({ document, trailer: clusterTimeElements(changeStreams) });
    return { reply: final instanceof Promise ? final.then(stamped) : stamped(final), durable };
  }
}
