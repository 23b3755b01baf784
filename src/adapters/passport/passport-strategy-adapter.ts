import type { Strategy } from 'passport-strategy';
import { GeneralError, NotAuthenticated, ServiceError } from '../../domain/errors';

/** All a strategy may read: Passport strategies get this instead of an Express request. */
export interface MinimalRequest {
  body: Record<string, unknown>;
  headers: Record<string, string | undefined>;
}

export interface PassportSuccess<U> {
  user: U;
  info?: any;
}

/** Turns what a strategy passed to `fail` into the error the caller sees. */
export type FailureMapper = (challenge: unknown, status?: number) => ServiceError;

const defaultFailure: FailureMapper = (challenge) => {
  if (challenge instanceof ServiceError) return challenge;
  if (typeof challenge === 'string' && challenge !== '') return new NotAuthenticated(challenge);
  const message = (challenge as { message?: unknown } | undefined)?.message;
  return new NotAuthenticated(typeof message === 'string' && message !== '' ? message : 'Not authenticated');
};

/**
 * Runs one Passport strategy as a promise, without Express or sessions: `success` resolves,
 * `fail` rejects with `NotAuthenticated` (via `mapFailure`), `error` rejects with the service
 * error it carries, or `GeneralError`. Each run uses a fresh object inheriting from the
 * strategy, so concurrent runs never share the action functions.
 */
export function runPassportStrategy<U = Record<string, any>>(
  strategy: Strategy,
  request: MinimalRequest,
  mapFailure: FailureMapper = defaultFailure,
): Promise<PassportSuccess<U>> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (action: () => void) => {
      if (settled) return;
      settled = true;
      action();
    };
    const run = Object.create(strategy) as Strategy;
    run.success = (user: U, info?: unknown) => settle(() => resolve({ user, info }));
    run.fail = ((challenge?: unknown, status?: number) => {
      // Passport allows fail(status) as well as fail(challenge, status).
      if (typeof challenge === 'number') settle(() => reject(mapFailure(undefined, challenge)));
      else settle(() => reject(mapFailure(challenge, status)));
    }) as Strategy['fail'];
    run.error = (error: unknown) =>
      settle(() => reject(error instanceof ServiceError ? error : new GeneralError('Authentication failed')));
    run.redirect = () => settle(() => reject(new GeneralError('Redirecting strategies are not supported')));
    run.pass = () => settle(() => reject(new NotAuthenticated('Not authenticated')));
    try {
      run.authenticate(request as never, { session: false });
    } catch (error) {
      run.error(error as Error);
    }
  });
}
