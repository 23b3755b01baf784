import type { Document } from 'bson';
import { CommandError } from '../base/command-error';

/** A standalone mongod refuses every command that carries a transaction number (transactions, retryable writes). */
export function standaloneRefusal(command: Document): CommandError | undefined {
  if (command.txnNumber === undefined) return undefined;
  return new CommandError('IllegalOperation', 'Transaction numbers are only allowed on a replica set member or mongos');
}
