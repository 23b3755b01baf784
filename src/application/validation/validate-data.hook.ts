import { plainToInstance, type ClassConstructor } from 'class-transformer';
import { validate } from 'class-validator';
import { BadRequest } from '../../domain/errors';
import type { HookContext } from '../hooks/hook-context';
import { toBadRequest } from './validation-errors';

const OPTIONS = { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: true, validationError: { target: false, value: false } };

/**
 * Validates `context.data` (an object, or each item of an array) against a class-validator DTO
 * and replaces it with the validated plain copy. Unknown fields and bad values give 400 with
 * per-field `errors`. `partial` (for patch) skips missing fields.
 */
export function validateData<T extends object>(dto: ClassConstructor<T>, options: { partial?: boolean } = {}) {
  return async (context: HookContext): Promise<void> => {
    const items = Array.isArray(context.data) ? context.data : [context.data];
    const validated = await Promise.all(items.map(async (item) => {
      if (typeof item !== 'object' || item === null || Array.isArray(item)) throw new BadRequest('The data must be an object');
      const instance = plainToInstance(dto, item, { excludeExtraneousValues: false });
      const failures = await validate(instance, { ...OPTIONS, skipMissingProperties: options.partial === true });
      if (failures.length > 0) throw toBadRequest('Invalid data', failures);
      // Class fields exist on every instance (ES2022 semantics); keep only what the caller sent.
      return Object.fromEntries(Object.entries(instance).filter(([key]) => Object.hasOwn(item, key)));
    }));
    context.data = Array.isArray(context.data) ? validated : validated[0];
  };
}
