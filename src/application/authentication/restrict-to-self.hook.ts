import { Forbidden, NotAuthenticated } from '../../domain/errors';
import type { HookContext } from '../hooks/hook-context';

/**
 * For external calls on the users service: only one's own record may be changed (`id` equal to
 * the authenticated user's id); multi-record calls (`id` null) are refused. Internal calls pass.
 * Register it after `authenticate`.
 */
export function restrictToSelf(options: { idField?: string } = {}) {
  return (context: HookContext): void => {
    if (!context.params.provider) return;
    const user = context.params.user;
    if (!user) throw new NotAuthenticated('Not authenticated');
    const own = options.idField ? user[options.idField] : (user.id ?? user._id);
    if (
      context.id === null ||
      context.id === undefined ||
      own === undefined ||
      own === null ||
      String(context.id) !== String(own)
    ) {
      throw new Forbidden('You may only change your own account');
    }
  };
}
