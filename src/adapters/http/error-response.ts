import { GeneralError, isServiceError, type ServiceErrorJSON } from '../../domain/errors';

export interface ErrorResponse {
  status: number;
  body: ServiceErrorJSON;
  /** Not one of ours: a bug or an infrastructure failure, logged with its stack. */
  unexpected: boolean;
}

const GENERIC_MESSAGE = 'Internal server error';

/**
 * The Feathers error shape for any thrown value, never with a stack. Errors that are not service
 * errors become a 500 `GeneralError` whatever their own `status` says; in production their message
 * is replaced (it may name internals), and the request id in the logs links the two.
 */
export function errorResponse(error: unknown, production: boolean): ErrorResponse {
  if (isServiceError(error)) {
    const json = error.toJSON();
    const status = Number.isInteger(json.code) && json.code >= 400 && json.code <= 599 ? json.code : 500;
    return { status, body: json, unexpected: status >= 500 };
  }
  const message = !production && error instanceof Error && error.message ? error.message : GENERIC_MESSAGE;
  return { status: 500, body: new GeneralError(message).toJSON(), unexpected: true };
}
