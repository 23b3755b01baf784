import { authenticate } from '../../authentication/authenticate.hook';
import { hashPassword } from '../../authentication/hash-password.hook';
import { restrictToSelf } from '../../authentication/restrict-to-self.hook';
import type { HookMap } from '../../hooks/hook-types';
import type { ServiceDependencies } from '../service-definition';

/**
 * Sign-up (`create`) is public; every other external call needs a valid token, and a user may
 * update, patch or remove only their own record. Passwords (validated by the DTOs first) are
 * hashed by the server that stores them.
 */
export function usersHooks({ passwordHasher, storesLocally }: ServiceDependencies): HookMap {
  const requireToken = authenticate('jwt');
  const onlySelf = restrictToSelf();
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
      create: [...hash],
      update: [onlySelf, ...hash],
      patch: [onlySelf, ...hash],
      remove: [onlySelf],
    },
  };
}
