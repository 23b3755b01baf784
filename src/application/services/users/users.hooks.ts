import { authenticate } from '../../authentication/authenticate.hook';
import { hashPassword } from '../../authentication/hash-password.hook';
import { restrictToSelf } from '../../authentication/restrict-to-self.hook';
import { protectFields } from '../../hooks/protect-fields.hook';
import type { HookMap } from '../../hooks/hook-types';
import type { PasswordHasherPort } from '../../../ports/password-hasher.port';
import { validateData } from '../../validation/validate-data.hook';
import { validateQuery } from '../../validation/validate-query.hook';
import { CreateUserDto, PatchUserDto, UsersQueryDto } from './users.dto';

export const USERS_METHODS = ['find', 'get', 'create', 'update', 'patch', 'remove'] as const;

/** Fields that never leave the server. */
export const USER_HIDDEN_FIELDS = ['password'] as const;

export interface UsersHooksOptions {
  /** Hashes the password on create, update and patch. */
  passwordHasher: PasswordHasherPort;
  /** False when the store is another server: that server hashes, so passwords are not hashed twice. */
  storesLocally?: boolean;
}

/**
 * Sign-up (`create`) is public; every other external call needs a valid token, and a user may
 * update, patch or remove only their own record. Passwords are validated, then hashed by the
 * server that stores them.
 */
export function usersHooks(options: UsersHooksOptions): HookMap {
  const checkQuery = validateQuery(UsersQueryDto);
  const requireToken = authenticate('jwt');
  const onlySelf = restrictToSelf();
  const hash = options.storesLocally === false ? [] : [hashPassword(options.passwordHasher)];
  return {
    around: {
      all: [protectFields(...USER_HIDDEN_FIELDS)],
      find: [requireToken],
      get: [requireToken],
      update: [requireToken],
      patch: [requireToken],
      remove: [requireToken],
    },
    before: {
      find: [checkQuery],
      get: [checkQuery],
      create: [validateData(CreateUserDto), ...hash],
      update: [onlySelf, checkQuery, validateData(CreateUserDto), ...hash],
      patch: [onlySelf, checkQuery, validateData(PatchUserDto, { partial: true }), ...hash],
      remove: [onlySelf, checkQuery],
    },
  };
}
