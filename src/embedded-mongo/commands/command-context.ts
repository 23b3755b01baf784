import type { Document, ObjectId } from 'bson';
import type { EmbeddedMongoLogger } from '../base/logger';
import type { ChangeStreamHub } from '../change-streams/change-stream-hub';
import type { CursorRegistry } from '../cursor-registry';
import type { SessionRegistry } from '../session-registry';
import type { Catalog } from '../storage/catalog';
import type { ServerParameters } from './server-parameters';

/** Facts about the running server that informational commands report. */
export interface ServerInfo {
  host(): string;
  readonly startedAt: Date;
  currentConnections(): number;
  totalConnections(): number;
  /** Runtime parameters (`getParameter` / `setParameter`). */
  readonly parameters: ServerParameters;
  /** The replica set this server is the only member of; absent when it runs as a standalone. */
  readonly replicaSet?: { readonly name: string; readonly electionId: ObjectId };
}

/** Everything a command handler may touch; handlers are synchronous and share nothing else. */
export interface CommandContext {
  /** The command's `$db`. */
  readonly db: string;
  readonly catalog: Catalog;
  readonly cursors: CursorRegistry;
  readonly sessions: SessionRegistry;
  readonly connectionId: number;
  readonly server: ServerInfo;
  /** Where writes report what mongod logs (a validator's `warn` action). */
  readonly logger: EmbeddedMongoLogger;
  /**
   * The address this connection reached the server by: its member name in `hello` (the driver drops a member it cannot
   * match to its seed).
   */
  readonly memberAddress: string;
  /** Cluster time and change streams; absent on a standalone. */
  readonly changeStreams?: ChangeStreamHub;
}

export type CommandHandler = (command: Document, context: CommandContext) => Document;
