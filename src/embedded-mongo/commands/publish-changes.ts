import type { Document } from 'bson';
import type { ChangeStreamHub } from '../change-streams/change-stream-hub';
import type { CommitContext } from '../change-streams/change-recorder';
import { commandName } from './command-registry';
import { parseNamespace } from './rename-collection.command';

/**
 * After each command: its writes become change events, read in the light of the command (a
 * transaction's commit, a rename, a dropDatabase; the undone writes of a failed commit are none).
 * Returns the history entries the storage engine writes with the command's changes, if it keeps them.
 */
export function publishChanges(hub: ChangeStreamHub, command: Document, reply: Document): Document[] | undefined {
  if (!hub.hasPendingChanges) return undefined; // a read, or a write that changed nothing
  const name = commandName(command);
  if (name === 'commitTransaction' && reply.ok !== 1) {
    hub.discardCommand();
    return undefined;
  }
  return hub.commitCommand(contextOf(name, command, reply));
}

/** Most commands: their writes are changes as they are. */
const PLAIN_COMMAND: CommitContext = {};

function contextOf(name: string | undefined, command: Document, reply: Document): CommitContext {
  switch (name) {
    case 'commitTransaction':
      return { transaction: { lsid: command.lsid as Document, txnNumber: command.txnNumber } };
    case 'renameCollection':
      return reply.ok === 1
        ? {
            rename: {
              from: parseNamespace(command.renameCollection, 'renameCollection'),
              to: parseNamespace(command.to, 'to'),
            },
          }
        : {};
    case 'dropDatabase':
      return { droppedDatabase: command.$db as string };
    default:
      return PLAIN_COMMAND;
  }
}
