import { createServer, type Server, type Socket } from 'node:net';
import type { Document } from 'bson';
import type { ServerInfo } from './commands/command-context';
import { CursorRegistry } from './cursor-registry';
import { SessionRegistry } from './session-registry';
import { runSessionCommand } from './commands/run-in-session';
import { TransactionManager } from './transactions/transaction-manager';
import type { EmbeddedMongoLogger } from './base/logger';
import type { Catalog } from './storage/catalog';
import type { StorageEngine } from './storage/storage-engine';
import { WireConnection } from './wire-connection';

export interface WireServerOptions {
  readonly catalog: Catalog;
  readonly engine: StorageEngine;
  readonly logger: EmbeddedMongoLogger;
  readonly cursorTimeoutMs?: number;
  /** Open transactions idle longer than this are aborted. */
  readonly transactionTimeoutMs?: number;
}

/** Accepts connections (TCP, a unix socket, or both) and routes their commands to the catalog. */
export class WireServer {
  private readonly servers: Server[] = [];
  private readonly connections = new Map<number, WireConnection>();
  private readonly cursors: CursorRegistry;
  private readonly sessions: SessionRegistry;
  private readonly info: ServerInfo;
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
    };
  }

  /** Listens on TCP; returns the bound port (useful with port 0). */
  async listenTcp(host: string, port: number): Promise<number> {
    const server = await this.listen((s, done) => s.listen(port, host, done));
    const address = server.address();
    const bound = typeof address === 'object' && address ? address.port : port;
    this.hostLabel = `${host}:${bound}`;
    return bound;
  }

  async listenUnix(socketPath: string): Promise<void> {
    await this.listen((s, done) => s.listen(socketPath, done));
    this.hostLabel ??= socketPath; // as mongod, a TCP address names the server first
  }

  async close(): Promise<void> {
    for (const connection of this.connections.values()) connection.close();
    await Promise.all(this.servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
    this.cursors.close();
    this.sessions.close();
  }

  private listen(start: (server: Server, done: () => void) => void): Promise<Server> {
    const server = createServer((socket) => this.accept(socket));
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

  private accept(socket: Socket): void {
    const id = ++this.connectionCount;
    const connection = new WireConnection(socket, id, (command, db, connectionId) => this.run(command, db, connectionId), this.options.logger);
    this.connections.set(id, connection);
    socket.on('close', () => this.connections.delete(id));
  }

  private run(command: Document, db: string, connectionId: number): { reply: Document; durable?: Promise<void> } {
    const context = { db, catalog: this.options.catalog, cursors: this.cursors, sessions: this.sessions, connectionId, server: this.info };
    const reply = runSessionCommand(command, context);
    return { reply, durable: this.options.engine.commit() };
  }
}
