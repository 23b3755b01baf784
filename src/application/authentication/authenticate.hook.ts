import { BadRequest, NotAuthenticated } from '../../domain/errors';
import type { AuthenticationResult } from '../../ports/authentication-strategy.port';
import type { Params } from '../../ports/service-params';
import type { HookContext } from '../hooks/hook-context';
import type { NextFunction } from '../hooks/hook-types';

export interface AuthenticateHookSettings {
  /** Path of the authentication service. Default 'authentication'. */
  service?: string;
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
  if (settings.strategies.length === 0) throw new Error('The authenticate hook needs at least one allowed strategy');

  const hook = async (context: HookContext, next?: NextFunction): Promise<void> => {
    const { params } = context;
    if (context.type === 'after' || context.type === 'error') throw new NotAuthenticated('The authenticate hook must be used as a before hook');
    if (params.authenticated === true) return next?.();
    if (context.path === servicePath) throw new NotAuthenticated('The authenticate hook does not need to be used on the authentication service');
    if (params.authentication) {
      const result = await findAuthenticator(context.app, servicePath).authenticate(params.authentication, params, ...settings.strategies);
      const user = result.service ? delegatedUser(params) : result.user;
      context.params = { ...params, authentication: result.authentication, user, authenticated: true };
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

/**
 * A call from another server (a service credential) acts for the user it names in
 * `X-On-Behalf-Of`, so this server's rules (owner, own account, one like) apply to that user
 * exactly as to its own; without the header the call acts for the server itself, like an
 * internal call.
 */
function delegatedUser(params: Params): Record<string, any> | undefined {
  const header = params.headers?.[ON_BEHALF_OF_HEADER];
  if (header === undefined) return undefined;
  if (typeof header !== 'string' || !/^[\w.:@-]{1,128}$/.test(header)) throw new BadRequest(`Invalid ${ON_BEHALF_OF_HEADER} header`);
  return { _id: header };
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
