import { CommandError } from '../base/command-error';

/** The label that makes the driver's `withTransaction` run the whole transaction again. */
const TRANSIENT = { errorLabels: ['TransientTransactionError'] };

export function writeConflict(detail: string): CommandError {
  return new CommandError(
    'WriteConflict',
    `Write conflict during plan execution and yielding is disabled. :: ${detail}`,
    TRANSIENT,
  );
}

export function snapshotUnavailable(namespace: string): CommandError {
  return new CommandError(
    'SnapshotUnavailable',
    `Unable to read from a snapshot due to pending collection catalog changes to ${namespace}; please retry the ` +
      `operation.`,
    TRANSIENT,
  );
}

export function noSuchTransaction(txnNumber: number, reason = 'no such transaction'): CommandError {
  return new CommandError(
    'NoSuchTransaction',
    `Transaction with { txnNumber: ${txnNumber} } has been aborted or does not exist: ${reason}`,
    TRANSIENT,
  );
}

export function operationNotSupported(message: string): CommandError {
  return new CommandError('OperationNotSupportedInTransaction', message);
}
