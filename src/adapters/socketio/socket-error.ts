import { GeneralError, isServiceError, type ServiceErrorJSON } from '../../domain/errors';

const GENERIC_MESSAGE = 'Internal server error';

/**
 * The ack of a failed call: the Feathers error shape, never a stack. Anything that is not one of
 * our errors (a bug, a thrown string) becomes a `GeneralError`; in production with a generic
 * message, since its own may name internals.
 */
export function socketErrorJson(error: unknown, production: boolean): { json: ServiceErrorJSON; unexpected: boolean } {
  if (isServiceError(error)) {
    const json = error.toJSON();
    return { json, unexpected: !(json.code >= 400 && json.code < 500) };
  }
  const message = !production && error instanceof Error && error.message ? error.message : GENERIC_MESSAGE;
  return { json: new GeneralError(message).toJSON(), unexpected: true };
}
