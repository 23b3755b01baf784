import { NotAuthenticated, ServiceError } from '../../domain/errors';

/**
 * jsonwebtoken and passport-jwt failures as `NotAuthenticated`, with the jsonwebtoken message
 * and `data: { name, expiredAt? }` as Feathers sends them, so clients can tell "expired" apart.
 */
export function jwtFailureToError(failure: unknown): ServiceError {
  if (failure instanceof ServiceError) return failure;
  if (!(failure instanceof Error)) return new NotAuthenticated('Invalid access token');
  if (failure.message === 'No auth token') return new NotAuthenticated('No access token');
  const known = ['TokenExpiredError', 'JsonWebTokenError', 'NotBeforeError'];
  if (!known.includes(failure.name)) return new NotAuthenticated('Invalid access token');
  const error = new NotAuthenticated(failure.message);
  // Set after construction: the error constructor treats a `name` in its data as error-like and drops it.
  const data: Record<string, unknown> = { name: failure.name };
  const { expiredAt, date } = failure as { expiredAt?: unknown; date?: unknown };
  if (expiredAt instanceof Date) data.expiredAt = expiredAt.toISOString();
  if (date instanceof Date) data.date = date.toISOString();
  error.data = data;
  return error;
}
