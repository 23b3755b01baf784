import type { Document } from 'bson';
import type { CommandContext } from './command-context';

const WRITE_COMMANDS = new Set(['insert', 'update', 'delete', 'findAndModify', 'findandmodify']);

/**
 * The namespace a write command targets when it is a capped collection (mongod refuses those writes in a transaction).
 */
export function cappedWriteNamespace(name: string, command: Document, context: CommandContext): string | undefined {
  if (!WRITE_COMMANDS.has(name) || typeof command[name] !== 'string') return undefined;
  const store = context.catalog.getCollection(context.db, command[name]);
  return store?.options.capped === true ? store.namespace : undefined;
}
