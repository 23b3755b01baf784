import { BadRequest, Forbidden, NotAuthenticated, NotFound } from '../../domain/errors';
import { copyWith } from '../../domain/plain-record';
import type { AuthenticationResult } from '../../ports/authentication-strategy.port';
import type { ServiceCallerInfo } from '../../ports/service-caller';
import type { Params } from '../../ports/service-params';
import type { ServicePort } from '../../ports/service.port';
import type { HookContext } from '../hooks/hook-context';
import type { NextFunction } from '../hooks/hook-types';
import { internalCallParams } from '../observability/internal-call-params';

export interface AuthenticateHookSettings {
  /** Path of the authentication service. Default 'authentication'. */
  service?: string;
  /** Path of the users service, where the user a service credential acts for is looked up. Default 'users'. */
  usersService?: string;
  strategies: string[];
}

/** What the hook needs from the authentication service. */
interface Authenticator {
  authenticate(data: unknown, params: Params, ...strategies: string[]): Promise<AuthenticationResult>;
}

/** Hooks made by `authenticate`: the OpenAPI document marks the methods they guard as needing a token. */
const AUTHENTICATE_HOOKS = new WeakSet<object>();

/**
 * Requires authentication for external calls: `authenticate('jwt')`. Credentials in
 * `params.authentication` (the bearer token the HTTP adapter parsed) are checked with the
 * listed strategies, then `params.user` and `params.authentication` are set. An external call
 * without credentials is a 401; an internal call without them passes. Works as an around or
 * a before hook.
 */
export function authenticate(...args: [AuthenticateHookSettings] | string[]) {
  const settings: AuthenticateHookSettings = typeof args[0] === 'object' ? args[0] : { strategies: args as string[] };
  const servicePath = settings.service ?? 'authentication';
  const usersPath = settings.usersService ?? 'users';
  if (settings.strategies.length === 0) throw new Error('The authenticate hook needs at least one allowed strategy');

  const hook = async (context: HookContext, next?: NextFunction): Promise<void> => {
    const { params } = context;
    if (context.type === 'after' || context.type === 'error')
      throw new NotAuthenticated('The authenticate hook must be used as a before hook');
    if (params.authenticated === true) return next?.();
    if (context.path === servicePath)
      throw new NotAuthenticated('The authenticate hook does not need to be used on the authentication service');
    if (params.authentication) {
      const result = await findAuthenticator(context.app, servicePath).authenticate(
        params.authentication,
        params,
        ...settings.strategies,
      );
      if (result.service) {
        const user = await delegatedUser(context, result.service, usersPath);
        context.params = copyWith(params, {
          authentication: result.authentication,
          user,
          authenticated: true,
          serviceCaller: result.service,
        });
      } else {
        context.params = copyWith(params, {
          authentication: result.authentication,
          user: result.user,
          authenticated: true,
        });
      }
    } else if (params.provider) {
      throw new NotAuthenticated('Not authenticated');
    }
    await next?.();
  };
  AUTHENTICATE_HOOKS.add(hook);
  return hook;
}

/** True for a hook made by `authenticate`. */
export function isAuthenticateHook(hook: unknown): boolean {
  return typeof hook === 'function' && AUTHENTICATE_HOOKS.has(hook);
}

/** The header a server bound to this one names its own user in (with its service credential only). */
export const ON_BEHALF_OF_HEADER = 'x-on-behalf-of';

/** `data.reason` of the 403s a service credential can get, so the calling server can tell them apart. */
export const SERVICE_CREDENTIAL_REFUSALS = {
  outsideScope: 'outside-scope',
  onBehalfOfRequired: 'on-behalf-of-required',
  unknownUser: 'unknown-user',
} as const;

/**
 * A call from another server (a service credential) must be one its credential names (service and
 * method), and acts for the user it names in `X-On-Behalf-Of`: an existing user of this server,
 * loaded here, so that every rule (owner, own account, one like) applies to that user exactly as
 * to a user signed in here. There is no call "as the server": without the header it is refused.
 */
async function delegatedUser(
  context: HookContext,
  caller: ServiceCallerInfo,
  usersPath: string,
): Promise<Record<string, any>> {
  const allowed = Object.hasOwn(caller.scopes, context.path) ? caller.scopes[context.path] : [];
  if (!allowed.includes(context.method)) {
    throw new Forbidden(`This service credential may not call '${context.method}' on '${context.path}'`, {
      reason: SERVICE_CREDENTIAL_REFUSALS.outsideScope,
    });
  }
  const header = context.params.headers?.[ON_BEHALF_OF_HEADER];
  if (header === undefined || header === '') {
    throw new Forbidden(`A service credential acts for a user: the ${ON_BEHALF_OF_HEADER} header is required`, {
      reason: SERVICE_CREDENTIAL_REFUSALS.onBehalfOfRequired,
    });
  }
  if (typeof header !== 'string' || !/^[\w.:@-]{1,128}$/.test(header))
    throw new BadRequest(`Invalid ${ON_BEHALF_OF_HEADER} header`);
  const users = (context.app as { service(path: string): Pick<ServicePort, 'get'> }).service(usersPath);
  try {
    // An internal call: the user's own record, as the JWT strategy loads a token's user.
    return (await users.get!(header, internalCallParams(context.params))) as Record<string, any>;
  } catch (error) {
    if (error instanceof NotFound || error instanceof BadRequest) {
      throw new Forbidden(`${ON_BEHALF_OF_HEADER} names no user of this server`, {
        reason: SERVICE_CREDENTIAL_REFUSALS.unknownUser,
      });
    }
    throw error;
  }
}

function findAuthenticator(app: unknown, path: string): Authenticator {
  let service: unknown;
  try {
    service = (app as { service(path: string): unknown }).service(path);
  } catch {
    service = undefined;
  }
  if (typeof (service as Partial<Authenticator> | undefined)?.authenticate !== 'function') {
    throw new NotAuthenticated('Could not find a valid authentication service');
  }
  return service as Authenticator;
}
