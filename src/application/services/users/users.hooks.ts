import { protectFields } from '../../hooks/protect-fields.hook';
import type { HookMap } from '../../hooks/hook-types';
import { validateData } from '../../validation/validate-data.hook';
import { validateQuery } from '../../validation/validate-query.hook';
import { CreateUserDto, PatchUserDto, UsersQueryDto } from './users.dto';

export const USERS_METHODS = ['find', 'get', 'create', 'update', 'patch', 'remove'] as const;

/** Fields that never leave the server. */
export const USER_HIDDEN_FIELDS = ['password'] as const;

export function usersHooks(): HookMap {
  const checkQuery = validateQuery(UsersQueryDto);
  return {
    around: { all: [protectFields(...USER_HIDDEN_FIELDS)] },
    before: {
      find: [checkQuery],
      get: [checkQuery],
      create: [validateData(CreateUserDto)],
      update: [checkQuery, validateData(CreateUserDto)],
      patch: [checkQuery, validateData(PatchUserDto, { partial: true })],
      remove: [checkQuery],
    },
  };
}
