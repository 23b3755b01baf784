import { copyWith } from '../../domain/plain-record';
import { STANDARD_METHODS } from '../../ports/service.port';
import type { HookContext } from '../hooks/hook-context';
import { recordIdOf } from '../services/record-id';

/** How a user is named in an owner field: the id as a string, whatever the store's id field. */
export function userIdOf(user: Record<string, any>): string {
  return String(recordIdOf(user));
}

/**
 * Sets the owner field of new records (`create`) or of a replacement (`update`) to the
 * authenticated user, never to one the client names; internal callers (no user) may name one.
 * The `store` stage runs it for a definition's `ownerField`.
 */
export function setOwner(field = 'userId') {
  return function stampOwner(context: HookContext): void {
    const user = context.params.user;
    if (!user) return;
    const owner = userIdOf(user);
    const stamp = (item: Record<string, unknown>) => copyWith(item, { [field]: owner });
    context.data = Array.isArray(context.data) ? context.data.map(stamp) : stamp(context.data);
  };
}

/**
 * External calls reach only the caller's own records: the owner joins the query, so someone
 * else's record is a 404 (its existence is not revealed). Custom methods take no query from
 * clients, so the owner is their only condition. Internal calls are not restricted.
 */
export function restrictToOwner(field = 'userId') {
  return (context: HookContext): void => {
    const { provider, user } = context.params;
    if (!provider || !user) return;
    const owner = { [field]: userIdOf(user) };
    const standard = (STANDARD_METHODS as readonly string[]).includes(context.method);
    context.params = copyWith(context.params, {
      query: standard ? copyWith(context.params.query ?? {}, owner) : owner,
    });
  };
}
