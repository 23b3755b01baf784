import { copyWith } from '../../domain/plain-record';
import type { PasswordHasherPort } from '../../ports/password-hasher.port';
import type { HookContext } from '../hooks/hook-context';

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
  return async (context: HookContext): Promise<void> => {
    if (context.data === undefined) return;
    context.data = Array.isArray(context.data) ? await Promise.all(context.data.map(hashItem)) : await hashItem(context.data);
  };
}
