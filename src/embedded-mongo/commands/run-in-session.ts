import type { Document } from 'bson';
import type { CommandContext } from './command-context';
import { errorReply, toCommandError } from '../base/command-error';
import { cappedWriteNamespace } from './capped-write';
import { commandName, runCommand } from './command-registry';
import { sessionKey } from '../session-registry';
import { requireSession, transactionNumber } from '../transactions/transaction-arguments';
import { operationNotSupported } from '../transactions/transaction-errors';

/** What mongod lets a multi-document transaction run (DDL is refused here for simplicity). */
const ALLOWED_IN_TRANSACTION = new Set([
  'find',
  'getMore',
  'killCursors',
  'aggregate',
  'distinct',
  'insert',
  'update',
  'delete',
  'findAndModify',
  'findandmodify',
]);

/**
 * Runs a command in its session: outside a transaction as is; with `autocommit: false` inside the
 * session's transaction, whose private catalog replaces the shared one for that command. Command
 * handlers thus need no transaction code, and a conflict or error aborts the transaction.
 */
export function runSessionCommand(command: Document, context: CommandContext): Document {
  if (command.lsid !== undefined) context.sessions.touch(command.lsid);
  const name = commandName(command) ?? '';
  if (command.autocommit !== false || name === 'commitTransaction' || name === 'abortTransaction')
    return runCommand(command, context);
  const key = sessionKey(command.lsid);
  const transactions = context.sessions.transactions;
  let transaction;
  try {
    transaction = transactions.statement(
      requireSession(key),
      transactionNumber(command),
      command.startTransaction === true,
    );
  } catch (error) {
    return errorReply(toCommandError(error));
  }
  if (!ALLOWED_IN_TRANSACTION.has(name)) {
    transactions.abortAfterError(key!, transaction, `'${name}' is not allowed`);
    return errorReply(operationNotSupported(`Cannot run '${name}' in a multi-document transaction.`));
  }
  const capped = cappedWriteNamespace(name, command, context);
  if (capped) {
    transactions.abortAfterError(key!, transaction, `'${name}' on a capped collection`);
    return errorReply(
      operationNotSupported(
        `Collection '${capped}' is a capped collection. Writes in transactions are not allowed on capped collections.`,
      ),
    );
  }
  const reply = runCommand(command, { ...context, catalog: transaction.catalog });
  if (transaction.failure) {
    transactions.abortAfterError(key!, transaction, transaction.failure.message);
    return errorReply(transaction.failure);
  }
  if (reply.ok !== 1 || reply.writeErrors !== undefined)
    transactions.abortAfterError(key!, transaction, `'${name}' failed`);
  return reply;
}
