import { copyWith } from '../../../domain/plain-record';
import { requireCurrentPassword, takeCurrentPassword } from '../../authentication/current-password.hook';
import { hashPassword } from '../../authentication/hash-password.hook';
import { limitSignUps } from '../../authentication/limit-per-client.hook';
import { refuseFieldsFromServiceCallers } from '../../authentication/service-caller-fields.hook';
import type { HookContext } from '../../hooks/hook-context';
import type { HookMap } from '../../hooks/hook-types';
import { mapOperands } from '../../../domain/query-conditions';
import type { HookDependencies } from '../service-definition';
import { assertDistinctEmailAddress, normalizeEmailAddress as normalize } from './email-address';
import { USER_IDENTITY } from './user-identity';

/**
 * E-mail addresses are stored NFKC-normalized, trimmed and lower-cased, and looked up the same way,
 * so the unique index on `email` makes them unique whatever their case or width
 * (`BOB@example.com` is `bob@example.com`, at sign-up and at login). Addresses that would only
 * look like another one (invisible characters, quoted local parts) are refused where written.
 */
function normalizeEmail(context: HookContext): void {
  if (context.method === 'find' || context.method === 'get') {
    const query = context.params.query;
    if (query?.email !== undefined)
      context.params = copyWith(context.params, {
        query: copyWith(query, { email: mapOperands(query.email, normalize) }),
      });
    return;
  }
  const normalizeItem = (item: Record<string, unknown>) => {
    if (item.email === undefined) return item;
    const email = normalize(item.email);
    assertDistinctEmailAddress(email);
    return copyWith(item, { email });
  };
  if (context.data !== undefined)
    context.data = Array.isArray(context.data) ? context.data.map(normalizeItem) : normalizeItem(context.data);
}

/**
 * E-mails are normalized wherever they are written or looked up; sign-ups are limited per client;
 * a change of password or e-mail carries the caller's current password, taken out of the data here.
 * These run wherever users are stored; data and queries are validated by the definition's DTOs first.
 */
export function usersHooks(): HookMap {
  const { loginField, passwordField, rolesField, disabledField } = USER_IDENTITY;
  // Another server acting for a user never takes the account over.
  const notFromServiceCallers = refuseFieldsFromServiceCallers(passwordField, loginField, rolesField, disabledField);
  return {
    before: {
      find: [normalizeEmail],
      get: [normalizeEmail],
      create: [limitSignUps, normalizeEmail],
      // `currentPassword` is no field of the account: taken out before the policy sees the data.
      update: [notFromServiceCallers, normalizeEmail, takeCurrentPassword],
      patch: [notFromServiceCallers, normalizeEmail, takeCurrentPassword],
    },
  };
}

/**
 * The server that stores accounts checks the current password of a change of password or e-mail,
 * then hashes passwords (validated by the DTOs, e-mails normalized first).
 */
export function storedUsersHooks({ passwordHasher }: HookDependencies): HookMap {
  const hash = hashPassword(passwordHasher, USER_IDENTITY.passwordField);
  const confirmIdentity = requireCurrentPassword(passwordHasher, USER_IDENTITY);
  return { before: { create: [hash], update: [confirmIdentity, hash], patch: [confirmIdentity, hash] } };
}
