import { copyWith } from '../../domain/plain-record';
import type { PasswordHasherPort } from '../../ports/password-hasher.port';
import type { HookContext } from '../hooks/hook-context';

/**
 * The param a login sets when it replaces an outdated hash: the hash it verified. The write then
 * applies only while the record still holds that hash, so a password changed in the meantime is
 * not overwritten by the old one (the store answers NotFound). Transports never pass params of
 * the caller's choosing: only server code sets it.
 */
export const REPLACED_HASH_PARAM = 'replacedPasswordHash';

/**
 * Replaces `data[field]` by its hash on create, update and patch (each item of an array).
 * Register it after data validation, so length rules see the plain password.
 */
export function hashPassword(hasher: PasswordHasherPort, field = 'password') {
  const hashItem = async (item: unknown): Promise<unknown> => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) return item;
    const value = (item as Record<string, unknown>)[field];
    if (typeof value !== 'string') return item;
    return copyWith(item, { [field]: await hasher.hash(value) });
  };
  return async function hashPasswords(context: HookContext): Promise<void> {
    const replaced: unknown = context.params[REPLACED_HASH_PARAM];
    // A condition the server adds after the query's validation: the field is no client's to query.
    if (typeof replaced === 'string' && context.method !== 'create')
      context.params = copyWith(context.params, { query: copyWith(context.params.query ?? {}, { [field]: replaced }) });
    if (context.data === undefined) return;
    context.data = Array.isArray(context.data)
      ? await Promise.all(context.data.map(hashItem))
      : await hashItem(context.data);
  };
}
