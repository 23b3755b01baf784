import type { Document } from 'bson';

/** Server error codes used by this server, with the codeName a real mongod sends. */
export const ErrorCode = {
  InternalError: 1,
  BadValue: 2,
  FailedToParse: 9,
  TypeMismatch: 14,
  IllegalOperation: 20,
  NamespaceNotFound: 26,
  IndexNotFound: 27,
  Unauthorized: 13,
  CursorNotFound: 43,
  NamespaceExists: 48,
  DollarPrefixedFieldName: 52,
  InvalidIdField: 53,
  CommandNotFound: 59,
  ImmutableField: 66,
  InvalidOptions: 72,
  InvalidNamespace: 73,
  IndexOptionsConflict: 85,
  IndexKeySpecsConflict: 86,
  CannotCreateIndex: 67,
  Location40415: 40415,
  MergeStageNoMatchingDocument: 13113,
  CommandNotSupportedOnView: 166,
  DuplicateKey: 11000,
  DocumentValidationFailure: 121,
  BSONObjectTooLarge: 10334,
  Location17419: 17419,
  Location40414: 40414,
  CommandNotSupported: 115,
  WriteConflict: 112,
  ConflictingOperationInProgress: 117,
  TransactionTooOld: 225,
  IncompleteTransactionHistory: 217,
  SnapshotUnavailable: 246,
  NoSuchTransaction: 251,
  TransactionCommitted: 256,
  OperationNotSupportedInTransaction: 263,
  InvalidResumeToken: 260,
  ChangeStreamFatalError: 280,
  ChangeStreamHistoryLost: 286,
  NoMatchingDocument: 47,
  Location40573: 40573,
  Location40674: 40674,
  NoReplicationEnabled: 76,
  Location51091: 51091,
  Location51108: 51108,
  NoQueryExecutionPlans: 291,
  PathNotViable: 28,
  ConflictingUpdateOperators: 40,
  Location40066: 40066,
  Location40602: 40602,
  Location16020: 16020,
  Location16554: 16554,
  Location16555: 16555,
  Location16556: 16556,
  Location16609: 16609,
  Location16612: 16612,
} as const;

export type ErrorCodeName = keyof typeof ErrorCode;

/** An error that becomes `{ ok: 0, errmsg, code, codeName, ...extra }` (or a writeErrors entry). */
export class CommandError extends Error {
  override readonly name = 'CommandError';
  readonly code: number;

  constructor(
    readonly codeName: ErrorCodeName,
    message: string,
    readonly extra: Document = {},
  ) {
    super(message);
    this.code = ErrorCode[codeName];
  }
}

/**
 * Any thrown value as a CommandError: mingo throws plain errors for bad operators and expressions
 * (an unknown query operator gets mongod's message), and lets the RegExp constructor's SyntaxError
 * through for a bad `$regex` pattern or `$options` flag, which mongod answers with codes 51091 and 51108.
 */
export function toCommandError(error: unknown): CommandError {
  if (error instanceof CommandError) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof SyntaxError && message.startsWith('Invalid regular expression'))
    return new CommandError('Location51091', `Regular expression is invalid: ${message}`);
  if (error instanceof SyntaxError && message.startsWith('Invalid flags'))
    return new CommandError('Location51108', `invalid flag in regex options: ${message}`);
  const unknownOperator = /^unknown query operator (\S+)$/.exec(message);
  if (unknownOperator) return new CommandError('BadValue', `unknown operator: ${unknownOperator[1]}`);
  return new CommandError(
    error instanceof Error && error.constructor.name === 'MingoError' ? 'BadValue' : 'InternalError',
    message,
  );
}

export function errorReply(error: CommandError): Document {
  return { ok: 0, errmsg: error.message, code: error.code, codeName: error.codeName, ...error.extra };
}
