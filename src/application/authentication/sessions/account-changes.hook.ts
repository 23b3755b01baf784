import type { HookContext } from '../../hooks/hook-context';
import type { HookMap } from '../../hooks/hook-types';
import { recordIdOf } from '../../services/record-id';
import type { SessionRegistry } from './session-registry';

/**
 * App-level after hooks (the users service may be registered after authentication) that end
 * sessions when an account changes: removing a user ends all of theirs; a password set through
 * the API (`patch`, `update`) ends every other session of that user, keeping the caller's own
 * when the caller is that user; disabling an account ends all of its sessions. Internal writes of
 * the password (a stored hash upgraded at login) end nothing; a password reset ends the sessions itself.
 */
export function endSessionsOnAccountChanges(
  sessions: SessionRegistry,
  identity: { path: string; passwordField: string; disabledField: string },
): HookMap {
  const changed = (context: HookContext): string[] =>
    ([] as unknown[])
      .concat(context.result ?? [])
      .map((record) => recordIdOf(record as Record<string, unknown>))
      .filter((id) => id !== undefined && id !== null)
      .map(String);

  const onRemove = async (context: HookContext): Promise<void> => {
    if (context.path !== identity.path) return;
    for (const userId of changed(context)) await sessions.endAllOf(userId);
  };

  const onPasswordChange = async (context: HookContext): Promise<void> => {
    if (context.path !== identity.path || !context.params.provider) return;
    const items = ([] as unknown[]).concat(context.data ?? []);
    if (!items.some((item) => typeof item === 'object' && item !== null && Object.hasOwn(item, identity.passwordField)))
      return;
    const caller = context.params.user ? String(recordIdOf(context.params.user)) : undefined;
    const ownSession = (context.params.authentication as { payload?: { sid?: unknown } } | undefined)?.payload?.sid;
    for (const userId of changed(context))
      await sessions.endAllOf(userId, userId === caller && typeof ownSession === 'string' ? ownSession : undefined);
  };

  // Disabling an account (an administrator's patch) ends every session of it.
  const onDisable = async (context: HookContext): Promise<void> => {
    if (context.path !== identity.path) return;
    const items = ([] as unknown[]).concat(context.data ?? []);
    if (
      !items.some(
        (item) =>
          typeof item === 'object' &&
          item !== null &&
          (item as Record<string, unknown>)[identity.disabledField] === true,
      )
    )
      return;
    for (const userId of changed(context)) await sessions.endAllOf(userId);
  };

  return { after: { remove: [onRemove], patch: [onPasswordChange, onDisable], update: [onPasswordChange] } };
}
