import { errorClasses, errorClassForCode, GeneralError } from './error-classes';
import { ServiceError } from './service-error';

/**
 * Revives an error from its JSON form (as a REST client receives it): by `name` first, then by
 * `code`, else a `GeneralError` (5xx) or plain `Error`. Every class revives, `Gone` included.
 */
export function convert(json: unknown): ServiceError | Error {
  if (json instanceof Error) return json;
  if (typeof json !== 'object' || json === null) return new Error(typeof json === 'string' ? json : 'Error');
  const record = json as Record<string, unknown>;
  const byName =
    typeof record.name === 'string' && Object.hasOwn(errorClasses, record.name) ? errorClasses[record.name] : undefined;
  const code = typeof record.code === 'number' ? record.code : undefined;
  const cls = byName ?? (code !== undefined ? errorClassForCode(code) : undefined);
  if (!cls) {
    if (code !== undefined && code >= 500) return new GeneralError(record.message, record.data);
    return new Error(typeof record.message === 'string' ? record.message : 'Error');
  }
  const error = new cls(typeof record.message === 'string' ? record.message : undefined, record.data ?? undefined);
  if (record.errors !== undefined) error.errors = record.errors;
  return error;
}

/** True for errors of this framework (they carry a wire-safe `toJSON`). */
export function isServiceError(error: unknown): error is ServiceError {
  return (
    error instanceof ServiceError ||
    (typeof error === 'object' && error !== null && (error as { type?: unknown }).type === 'ServiceError')
  );
}
