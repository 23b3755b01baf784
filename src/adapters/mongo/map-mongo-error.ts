import { BadRequest, Conflict, GeneralError, ServiceError, Unavailable } from '../../domain/errors';

type DriverError = Error & {
  code?: unknown;
  codeName?: unknown;
  keyPattern?: unknown;
  keyValue?: unknown;
  errmsg?: unknown;
  errorLabels?: unknown;
  writeErrors?: Array<{ code?: unknown; err?: Record<string, unknown>; errmsg?: unknown }>;
  hasErrorLabel?: (label: string) => boolean;
};

const DUPLICATE_KEY = new Set([11000, 11001]);

// Network, topology and shutdown conditions: the database is (for now) out of reach.
const UNAVAILABLE_NAMES = new Set([
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoServerSelectionError',
  'MongoNotConnectedError',
  'MongoTopologyClosedError',
  'MongoServerClosedError',
  'MongoPoolClosedError',
  'MongoPoolClearedError',
  'PoolClearedOnNetworkError',
  'MongoWaitQueueTimeoutError',
  'MongoClientClosedError',
  'MongoOperationTimeoutError',
]);
// ShutdownInProgress, InterruptedAtShutdown, NotWritablePrimary, NotPrimaryNoSecondaryOk, PrimarySteppedDown,
// HostUnreachable, HostNotFound, NetworkTimeout, MaxTimeMSExpired.
const UNAVAILABLE_CODES = new Set([91, 11600, 10107, 13435, 189, 6, 7, 89, 50]);

// Invalid values: BadValue, FailedToParse, TypeMismatch, DollarPrefixedFieldName, InvalidIdField, NotSingleValueField,
// EmptyFieldName, DottedFieldName, ImmutableField, DocumentValidationFailure, invalid regex, invalid regex flags,
// and empty / `$`-prefixed field paths.
const BAD_VALUE_CODES = new Set([2, 9, 14, 52, 53, 54, 56, 57, 66, 121, 51091, 51108, 40352, 16410]);
const BAD_VALUE_NAMES = new Set([
  'BSONError',
  'BSONVersionError',
  'BSONRuntimeError',
  'BSONOffsetError',
  'MongoInvalidArgumentError',
]);

/**
 * Turns a driver, server or BSON error into a service error that says what happened without the
 * driver's text (which names databases, collections, indexes and echoes values). The original
 * stays available as the non-enumerable `cause` for logs; it never reaches `toJSON()`.
 * Service errors pass through unchanged.
 */
export function mapMongoError(error: unknown): ServiceError {
  if (error instanceof ServiceError) return error;
  const failure = (typeof error === 'object' && error !== null ? error : new Error(String(error))) as DriverError;
  const code = primaryCode(failure);
  const name = typeof failure.name === 'string' ? failure.name : '';
  let mapped: ServiceError;
  if (code !== undefined && DUPLICATE_KEY.has(code)) {
    const fields = duplicateKeyFields(failure);
    const message =
      fields.length > 0
        ? `A record with the same ${fields.join(', ')} already exists`
        : 'A record with the same unique value already exists';
    mapped = new Conflict(message, { fields });
  } else if (code === 112) {
    mapped = new Conflict('The record was changed by another operation; try again', { reason: 'WriteConflict' });
  } else if (
    UNAVAILABLE_NAMES.has(name) ||
    (code !== undefined && UNAVAILABLE_CODES.has(code)) ||
    hasLabel(failure, 'RetryableWriteError')
  ) {
    mapped = new Unavailable('The database is not available', {
      reason: code === 50 ? 'MaxTimeMSExpired' : 'unavailable',
    });
  } else if (BAD_VALUE_NAMES.has(name) || (code !== undefined && BAD_VALUE_CODES.has(code))) {
    const codeName = typeof failure.codeName === 'string' ? failure.codeName : undefined;
    mapped = new BadRequest('Invalid value in the query or data', codeName ? { reason: codeName } : undefined);
  } else {
    mapped = new GeneralError('Database operation failed');
  }
  Object.defineProperty(mapped, 'cause', { value: error, enumerable: false, configurable: true, writable: true });
  return mapped;
}

/** Labels that tell a caller's `session.withTransaction` to retry: such errors stay driver errors. */
const RETRY_LABELS = ['TransientTransactionError', 'UnknownTransactionCommitResult'];

/**
 * Runs a database step and maps whatever it throws, except transaction errors the driver's
 * `withTransaction` must see as they are to retry (transactions are started by server code, and
 * a retried transaction never reaches a client).
 */
export async function withMongoErrors<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    if (
      typeof error === 'object' &&
      error !== null &&
      RETRY_LABELS.some((label) => hasLabel(error as DriverError, label))
    )
      throw error;
    throw mapMongoError(error);
  }
}

function primaryCode(error: DriverError): number | undefined {
  if (typeof error.code === 'number') return error.code;
  const first = error.writeErrors?.[0];
  const inner = first?.code ?? first?.err?.code;
  return typeof inner === 'number' ? inner : undefined;
}

function hasLabel(error: DriverError, label: string): boolean {
  if (typeof error.hasErrorLabel === 'function') return error.hasErrorLabel(label);
  return Array.isArray(error.errorLabels) && error.errorLabels.includes(label);
}

/** The field names of the violated unique index: keyPattern, else keyValue, else the server's message. */
function duplicateKeyFields(error: DriverError): string[] {
  const first = error.writeErrors?.[0]?.err;
  for (const source of [error.keyPattern, error.keyValue, first?.keyPattern, first?.keyValue]) {
    if (typeof source === 'object' && source !== null && Object.keys(source).length > 0) return Object.keys(source);
  }
  const text = typeof error.errmsg === 'string' ? error.errmsg : typeof error.message === 'string' ? error.message : '';
  const dupKey = /dup key: \{(.*)\}\s*$/s.exec(text)?.[1];
  return dupKey ? topLevelKeys(dupKey) : [];
}

/** The keys of `email: "a, b: c", "x.y": { z: 1 }` (values skipped, whatever they hold). */
function topLevelKeys(body: string): string[] {
  const keys: string[] = [];
  let depth = 0;
  let quote: string | undefined;
  let token = '';
  let expectingKey = true;
  for (let index = 0; index < body.length; index++) {
    const char = body[index];
    if (quote) {
      if (char === '\\') index++;
      else if (char === quote) quote = undefined;
      else if (expectingKey && depth === 0) token += char;
      continue;
    }
    if (char === '"' || char === "'") quote = char;
    else if (char === '{' || char === '[') depth++;
    else if (char === '}' || char === ']') depth--;
    else if (depth === 0 && char === ':' && expectingKey) {
      if (token.trim()) keys.push(token.trim());
      token = '';
      expectingKey = false;
    } else if (depth === 0 && char === ',') expectingKey = true;
    else if (expectingKey && depth === 0) token += char;
  }
  return [...new Set(keys)];
}
