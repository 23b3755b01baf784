import type { Document } from 'bson';
import { errorReply, toCommandError } from '../base/command-error';
import { sessionKey } from '../session-registry';
import { requireSession, transactionNumber } from '../transactions/transaction-arguments';
import type { TransactionManager, WrittenOnce } from '../transactions/transaction-manager';
import { commandName } from './command-registry';

/**
 * The write commands a driver sends again, with the same `txnNumber`, when it got no answer (mongod's retryable
 * writes).
 */
const RETRYABLE_WRITES = new Set(['insert', 'update', 'delete', 'findAndModify', 'findandmodify']);

/**
 * Runs a retryable write (a write command with `lsid` and `txnNumber`, outside a transaction) at
 * most once per session and number: a retry, sent after a lost connection, gets the first run's
 * reply (naming the statements it did not run again, as mongod's `retriedStmtIds` does) once the
 * first run's writes are durable, instead of inserting or incrementing a second time. A batch's
 * statement that failed is answered as it failed (mongod would try it again). The replies are
 * kept per session while the session lives, not across a restart of the server. Anything else is
 * just run.
 */
export function runWriteOnce(command: Document, transactions: TransactionManager, run: () => WrittenOnce): WrittenOnce {
  if (command.txnNumber === undefined || command.autocommit !== undefined) return run();
  const name = commandName(command);
  if (name === undefined || !RETRYABLE_WRITES.has(name)) return run();
  let session: string;
  let txnNumber: number;
  let earlier: WrittenOnce | undefined;
  try {
    session = requireSession(sessionKey(command.lsid));
    txnNumber = transactionNumber(command);
    earlier = transactions.retryableWrite(session, txnNumber);
  } catch (error) {
    return { reply: errorReply(toCommandError(error)) };
  }
  if (earlier) return { reply: retriedReply(name, command, earlier.reply), durable: earlier.durable };
  const written = run();
  // A command that failed as a whole changed nothing: mongod keeps no record of it, and a retry runs it.
  if (written.reply.ok === 1) transactions.recordRetryableWrite(session, txnNumber, written);
  return written;
}

/**
 * The first reply again, naming the statements this retry did not run: those the first run
 * executed (its write errors, and after an ordered batch's error the rest, were not). Their ids
 * are their positions unless the command numbered them.
 */
function retriedReply(name: string, command: Document, reply: Document): Document {
  if (name === 'findAndModify' || name === 'findandmodify')
    return { ...reply, retriedStmtId: typeof command.stmtId === 'number' ? command.stmtId : 0 };
  const statements: unknown =
    name === 'insert' ? command.documents : name === 'update' ? command.updates : command.deletes;
  const count = Array.isArray(statements) ? statements.length : 0;
  const failed = new Set<number>();
  let firstFailed = count;
  for (const error of Array.isArray(reply.writeErrors) ? (reply.writeErrors as Document[]) : []) {
    if (typeof error.index !== 'number') continue;
    failed.add(error.index);
    firstFailed = Math.min(firstFailed, error.index);
  }
  const executedUpTo = command.ordered === false ? count : firstFailed;
  const numbered: unknown = command.stmtIds;
  const ids: unknown[] = [];
  for (let index = 0; index < executedUpTo; index++)
    if (!failed.has(index)) ids.push(Array.isArray(numbered) && numbered.length === count ? numbered[index] : index);
  return { ...reply, retriedStmtIds: ids };
}
