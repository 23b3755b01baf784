import { requireSession, transactionNumber } from '../transactions/transaction-arguments';
import { sessionKey } from '../session-registry';
import type { CommandHandler } from './command-context';

/** `commitTransaction` (sent to admin): applies the session's transaction; repeating it succeeds. */
export const commitTransactionCommand: CommandHandler = (command, context) => {
  context.sessions.transactions.commit(requireSession(sessionKey(command.lsid)), transactionNumber(command));
  return { ok: 1 };
};

export const abortTransactionCommand: CommandHandler = (command, context) => {
  context.sessions.transactions.abort(requireSession(sessionKey(command.lsid)), transactionNumber(command));
  return { ok: 1 };
};

/** `killSessions`: like endSessions, open transactions of those sessions are aborted. */
export const killSessionsCommand: CommandHandler = (command, context) => {
  context.sessions.end(Array.isArray(command.killSessions) ? command.killSessions : []);
  return { ok: 1 };
};
