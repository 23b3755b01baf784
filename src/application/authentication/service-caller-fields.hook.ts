import { Forbidden } from '../../domain/errors';
import type { HookContext } from '../hooks/hook-context';

/**
 * Fields a call made with a service credential may never write (on the users service: the
 * password, the e-mail, roles): another server acting for a user must not be able to take the
 * account over, even for a user whose own rules would let them change it. The fields are looked
 * for at the top level of the data and inside update operators (`$set`, `$unset`, ...).
 */
export function refuseFieldsFromServiceCallers(...fields: string[]) {
  const guarded = new Set(fields);
  const touched = (item: unknown): string | undefined => {
    if (typeof item !== 'object' || item === null) return undefined;
    for (const [key, value] of Object.entries(item)) {
      if (guarded.has(key.split('.')[0])) return key;
      if (key.startsWith('$') && typeof value === 'object' && value !== null) {
        const inner = Object.keys(value).find((field) => guarded.has(field.split('.')[0]));
        if (inner !== undefined) return inner;
      }
    }
    return undefined;
  };
  return function refuseAccountFieldsFromServices(context: HookContext): void {
    if (!context.params.serviceCaller) return;
    const items: unknown[] = Array.isArray(context.data) ? context.data : [context.data];
    for (const item of items) {
      const field = touched(item);
      if (field !== undefined) throw new Forbidden(`A call made with a service credential cannot set '${field}'`);
    }
  };
}
