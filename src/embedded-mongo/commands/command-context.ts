import type { Document } from 'bson';
import type { CursorRegistry } from '../cursor-registry';
import type { SessionRegistry } from '../session-registry';
import type { Catalog } from '../storage/catalog';

/** Facts about the running server that informational commands report. */
export interface ServerInfo {
  host(): string;
  readonly startedAt: Date;
  currentConnections(): number;
  totalConnections(): number;
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
}

export type CommandHandler = (command: Document, context: CommandContext) => Document;
