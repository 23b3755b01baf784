import { GeneralError, isServiceError, type ServiceErrorJSON } from '../../domain/errors';

/** What every transport answers for a failed call, and whether it is logged as unexpected. */
export interface ErrorAnswer {
  /** The HTTP status, and the `code` of the body. */
  status: number;
  body: ServiceErrorJSON;
  /** A 5xx: a bug or an infrastructure failure, logged with its stack on every transport. */
  unexpected: boolean;
}

const GENERIC_MESSAGE = 'Internal server error';

/**
 * The Feathers error shape for any thrown value, never with a stack. Errors that are not service
 * errors become a 500 `GeneralError` whatever their own `status` says; in production their message
 * is replaced (it may name internals), and the request id in the logs links the two.
 */
export function errorAnswer(error: unknown, production: boolean): ErrorAnswer {
  if (isServiceError(error)) {
    const body = error.toJSON();
    const status = Number.isInteger(body.code) && body.code >= 400 && body.code <= 599 ? body.code : 500;
    return { status, body, unexpected: status >= 500 };
  }
  const message = !production && error instanceof Error && error.message ? error.message : GENERIC_MESSAGE;
  return { status: 500, body: new GeneralError(message).toJSON(), unexpected: true };
}
