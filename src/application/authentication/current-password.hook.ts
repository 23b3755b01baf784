import { BadRequest } from '../../domain/errors';
import { copyWith, isRecord } from '../../domain/plain-record';
import type { PasswordHasherPort } from '../../ports/password-hasher.port';
import type { ServicePort } from '../../ports/service.port';
import type { HookContext } from '../hooks/hook-context';
import { internalCallParams } from '../observability/internal-call-params';
import { recordIdOf } from '../services/record-id';

/** The data field in which a caller proves who they are before a change that could take an account over. */
export const CURRENT_PASSWORD_FIELD = 'currentPassword';

/** Where `takeCurrentPassword` keeps it for the server that checks it (it never reaches a store or another server). */
const CURRENT_PASSWORD_PARAM = 'currentPassword';

const invalid = (message: string) =>
  new BadRequest('Invalid data', { errors: { [CURRENT_PASSWORD_FIELD]: [message] } });

/**
 * Takes `currentPassword` out of the data (it is no field of the record) into the call's params,
 * for `requireCurrentPassword`: run it on every binding, before the policy.
 */
export function takeCurrentPassword(context: HookContext): void {
  const items: unknown[] = Array.isArray(context.data) ? context.data : [context.data];
  const given = items
    .map((item) => (isRecord(item) ? item[CURRENT_PASSWORD_FIELD] : undefined))
    .find((value) => value !== undefined);
  if (given === undefined) return;
  context.data = Array.isArray(context.data) ? items.map(withoutCurrentPassword) : withoutCurrentPassword(context.data);
  context.params = copyWith(context.params, { [CURRENT_PASSWORD_PARAM]: given });
}

/**
 * Where accounts are stored: an external write that sets the password or the e-mail must carry
 * the caller's current password (checked against the caller's stored hash), so that a stolen
 * access token alone cannot take the account over. The caller is the signed-in user, so an
 * administrator changing someone else's account confirms with their own password. Internal
 * writes (a password reset, a hash upgraded at login) need none.
 */
export function requireCurrentPassword(
  hasher: PasswordHasherPort,
  identity: { path: string; loginField: string; passwordField: string },
) {
  const guarded = [identity.loginField, identity.passwordField];
  return async function confirmCurrentPassword(context: HookContext): Promise<void> {
    const { provider, user } = context.params;
    if (!provider || !user) return;
    const items: unknown[] = Array.isArray(context.data) ? context.data : [context.data];
    if (!items.some((item) => isRecord(item) && guarded.some((field) => item[field] !== undefined))) return;
    const currentPassword: unknown = context.params[CURRENT_PASSWORD_PARAM];
    if (typeof currentPassword !== 'string' || currentPassword === '')
      throw invalid(
        `${CURRENT_PASSWORD_FIELD} is required to change the ${identity.passwordField} or the ${identity.loginField}`,
      );
    const users = (context.app as { service(path: string): Pick<ServicePort, 'get'> }).service(identity.path);
    // An internal call: the caller's own record, with its hash.
    const stored = (await users.get!(recordIdOf(user) as string, internalCallParams(context.params))) as Record<
      string,
      unknown
    >;
    const hash = stored[identity.passwordField];
    if (typeof hash !== 'string' || !(await hasher.compare(currentPassword, hash)))
      throw invalid(`${CURRENT_PASSWORD_FIELD} is not the current password`);
  };
}

function withoutCurrentPassword(item: unknown): unknown {
  if (!isRecord(item) || !Object.hasOwn(item, CURRENT_PASSWORD_FIELD)) return item;
  const { [CURRENT_PASSWORD_FIELD]: _dropped, ...rest } = item;
  return rest;
}
