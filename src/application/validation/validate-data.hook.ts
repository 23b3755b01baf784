import type { ClassConstructor } from 'class-transformer';
import { BadRequest } from '../../domain/errors';
import type { HookContext } from '../hooks/hook-context';
import { FORBIDDEN_KEYS } from '../query/query-limits';
import { toBadRequest } from './validation-errors';
import { classTransformer, classValidator } from './validation-libraries';

const OPTIONS = { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: true, validationError: { target: false, value: false } };

/**
 * Validates `context.data` (an object, or each item of an array) against a class-validator DTO
 * and replaces it with the validated plain copy. Unknown fields and bad values give 400 with
 * per-field `errors`. `partial` (for patch) skips missing fields.
 */
export function validateData<T extends object>(dto: ClassConstructor<T>, options: { partial?: boolean } = {}) {
  const { plainToInstance } = classTransformer();
  const { validate } = classValidator();
  return async (context: HookContext): Promise<void> => {
    const items = Array.isArray(context.data) ? context.data : [context.data];
    const validated = await Promise.all(items.map(async (item) => {
      if (typeof item !== 'object' || item === null || Array.isArray(item)) throw new BadRequest('The data must be an object');
      // class-transformer silently skips these keys, so the whitelist would never see them.
      const forbidden = findForbiddenKey(item);
      if (forbidden !== undefined) throw new BadRequest(`Invalid field name '${forbidden}'`);
      const instance = plainToInstance(dto, item, { excludeExtraneousValues: false });
      const failures = await validate(instance, { ...OPTIONS, skipMissingProperties: options.partial === true });
      if (failures.length > 0) throw toBadRequest('Invalid data', failures);
      // Class fields exist on every instance (ES2022 semantics); keep only what the caller sent.
      return Object.fromEntries(Object.entries(instance).filter(([key]) => Object.hasOwn(item, key)));
    }));
    context.data = Array.isArray(context.data) ? validated : validated[0];
  };
}

/** The first `__proto__` / `constructor` / `prototype` own key at any depth of plain objects and arrays. */
function findForbiddenKey(root: object): string | undefined {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value !== 'object' || value === null) continue;
    const proto = Object.getPrototypeOf(value);
    if (!Array.isArray(value) && proto !== Object.prototype && proto !== null) continue;
    for (const key of Object.keys(value)) {
      if (FORBIDDEN_KEYS.has(key)) return key;
      stack.push((value as Record<string, unknown>)[key]);
    }
  }
  return undefined;
}
