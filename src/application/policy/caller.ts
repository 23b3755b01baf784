import type { Params } from '../../ports/service-params';
import { recordIdOf } from '../services/record-id';

/**
 * Who makes a call, as a policy sees it: anonymous (no user), or a signed-in user with an id and
 * the roles stored on their account. A policy decides from these alone, so that what it compiles
 * to can be kept per caller.
 */
export interface Caller {
  /** The user's id as a string (how owner fields name users); undefined when anonymous. */
  readonly id: string | undefined;
  readonly roles: readonly string[];
  readonly anonymous: boolean;
}

export const ANONYMOUS: Caller = Object.freeze({
  id: undefined,
  roles: Object.freeze([]) as readonly string[],
  anonymous: true,
});

/** The caller of a call: `params.user`, its id and its roles (strings only; anything else is ignored). */
export function callerOf(params: Params, rolesField: string): Caller {
  const user = params.user;
  const id = user ? recordIdOf(user) : undefined;
  if (id === undefined || id === null) return ANONYMOUS;
  const stored: unknown = user![rolesField];
  const roles = Array.isArray(stored) ? stored.filter((role): role is string => typeof role === 'string') : [];
  return { id: String(id), roles, anonymous: false };
}

/** A key naming everything a policy may read of a caller. */
export function callerKey(caller: Caller): string {
  if (caller.anonymous) return '';
  const { roles } = caller;
  // Most callers have no role or one: no copy and sort for them.
  return `${caller.id}\u0000${roles.length < 2 ? (roles[0] ?? '') : [...roles].sort().join('\u0000')}`;
}
