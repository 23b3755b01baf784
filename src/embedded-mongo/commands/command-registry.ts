import type { Document } from 'bson';
import { aggregateCommand } from './aggregate.command';
import type { CommandContext, CommandHandler } from './command-context';
import { CommandError, errorReply, toCommandError } from '../base/command-error';
import { createCommand, dropCommand, listCollectionsCommand } from './collection.commands';
import { countCommand } from './count.command';
import { dropDatabaseCommand, listDatabasesCommand } from './database.commands';
import { deleteCommand } from './delete.command';
import {
  acknowledgeCommand,
  buildInfoCommand,
  connectionStatusCommand,
  endSessionsCommand,
  hostInfoCommand,
  pingCommand,
  serverStatusCommand,
} from './diagnostic.commands';
import { distinctCommand } from './distinct.command';
import { explainCommand } from './explain.command';
import { findAndModifyCommand } from './find-and-modify.command';
import { findCommand } from './find.command';
import { getMoreCommand } from './get-more.command';
import { helloCommand } from './hello.command';
import { createIndexesCommand, dropIndexesCommand, listIndexesCommand } from './index.commands';
import { insertCommand } from './insert.command';
import { collModCommand } from './coll-mod.command';
import { getParameterCommand, setParameterCommand } from './parameter.commands';
import { killCursorsCommand } from './kill-cursors.command';
import { renameCollectionCommand } from './rename-collection.command';
import { replSetGetStatusCommand } from './repl-set-get-status.command';
import { abortTransactionCommand, commitTransactionCommand, killSessionsCommand } from './transaction.commands';
import { updateCommand } from './update.command';

const HANDLERS: Record<string, CommandHandler> = {
  hello: helloCommand,
  isMaster: helloCommand,
  ismaster: helloCommand,
  ping: pingCommand,
  buildInfo: buildInfoCommand,
  buildinfo: buildInfoCommand,
  getParameter: getParameterCommand,
  setParameter: setParameterCommand,
  serverStatus: serverStatusCommand,
  connectionStatus: connectionStatusCommand,
  hostInfo: hostInfoCommand,
  listDatabases: listDatabasesCommand,
  dropDatabase: dropDatabaseCommand,
  endSessions: endSessionsCommand,
  killSessions: killSessionsCommand,
  refreshSessions: acknowledgeCommand,
  commitTransaction: commitTransactionCommand,
  abortTransaction: abortTransactionCommand,
  insert: insertCommand,
  find: findCommand,
  getMore: getMoreCommand,
  killCursors: killCursorsCommand,
  aggregate: aggregateCommand,
  count: countCommand,
  distinct: distinctCommand,
  update: updateCommand,
  delete: deleteCommand,
  findAndModify: findAndModifyCommand,
  findandmodify: findAndModifyCommand,
  create: createCommand,
  drop: dropCommand,
  listCollections: listCollectionsCommand,
  createIndexes: createIndexesCommand,
  listIndexes: listIndexesCommand,
  dropIndexes: dropIndexesCommand,
  collMod: collModCommand,
  deleteIndexes: dropIndexesCommand,
  explain: explainCommand,
  renameCollection: renameCollectionCommand,
  replSetGetStatus: replSetGetStatusCommand,
};

/** The command name is the first field of the command document. */
export function commandName(command: Document): string | undefined {
  for (const key in command) return key;
  return undefined;
}

/** Runs one command; every failure becomes a server-shaped error reply, never an exception. */
export function runCommand(command: Document, context: CommandContext): Document {
  const name = commandName(command);
  const handler = name !== undefined && Object.hasOwn(HANDLERS, name) ? HANDLERS[name] : undefined;
  try {
    if (!handler) throw new CommandError('CommandNotFound', `no such command: '${name ?? ''}'`);
    return handler(command, context);
  } catch (error) {
    return errorReply(toCommandError(error));
  }
}
