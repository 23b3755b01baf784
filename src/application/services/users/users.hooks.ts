import { authenticate } from '../../authentication/authenticate.hook';
import { hashPassword } from '../../authentication/hash-password.hook';
import { restrictToOwner } from '../../authentication/owner.hooks';
import { restrictToSelf } from '../../authentication/restrict-to-self.hook';
import type { HookContext } from '../../hooks/hook-context';
import type { HookMap } from '../../hooks/hook-types';
import { mapOperands } from '../../../domain/query-conditions';
import type { ServiceDependencies } from '../service-definition';

const normalize = (value: unknown) => (typeof value === 'string' ? value.trim().toLowerCase() : value);

/**
 * E-mail addresses are stored trimmed and lower-cased, and looked up the same way, so the unique
 * index on `email` makes them unique whatever their case (`BOB@example.com` is `bob@example.com`,
 * at sign-up and at login).
 */
function normalizeEmail(context: HookContext): void {
  if (context.method === 'find' || context.method === 'get') {
    const query = context.params.query;
    if (query?.email !== undefined) context.params = { ...context.params, query: { ...query, email: mapOperands(query.email, normalize) } };
    return;
  }
  const normalizeItem = (item: Record<string, unknown>) => (item.email === undefined ? item : { ...item, email: normalize(item.email) });
  if (context.data !== undefined) context.data = Array.isArray(context.data) ? context.data.map(normalizeItem) : normalizeItem(context.data);
}

/**
 * Sign-up (`create`) is public; every other external call needs a valid token. A user reads only
 * their own account (others' are 404, as if absent) and may update, patch or remove only it.
 * Passwords (validated by the DTOs first) are hashed by the server that stores them. E-mails are
 * normalized wherever they are written or looked up.
 */
export function usersHooks({ passwordHasher, storesLocally }: ServiceDependencies): HookMap {
  const requireToken = authenticate('jwt');
  const onlySelf = restrictToSelf();
  const ownAccount = restrictToOwner('_id');
  const hash = storesLocally ? [hashPassword(passwordHasher)] : [];
  return {
    around: {
      find: [requireToken],
      get: [requireToken],
      update: [requireToken],
      patch: [requireToken],
      remove: [requireToken],
    },
    before: {
      find: [ownAccount, normalizeEmail],
      get: [ownAccount, normalizeEmail],
      create: [normalizeEmail, ...hash],
      update: [onlySelf, normalizeEmail, ...hash],
      patch: [onlySelf, normalizeEmail, ...hash],
      remove: [onlySelf],
    },
  };
}
