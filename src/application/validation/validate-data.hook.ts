import type { ClassConstructor } from 'class-transformer';
import { BadRequest } from '../../domain/errors';
import type { HookContext } from '../hooks/hook-context';
import { checkDataShape, DATA_LIMITS } from './check-data-shape';
import { FieldErrors, toBadRequest } from './validation-errors';
import { classTransformer, classValidator } from './validation-libraries';
import { copyWith, isRecord, withoutFields } from '../../domain/plain-record';

const OPTIONS = {
  whitelist: true,
  forbidNonWhitelisted: true,
  forbidUnknownValues: true,
  validationError: Object.freeze({ target: false, value: false }),
};
// Made once, one per value of skipMissingProperties: class-validator reads several options on every validate(), fast
// only from an object of a shared shape.
const WHOLE_DATA_OPTIONS = Object.freeze(copyWith(OPTIONS, { skipMissingProperties: false }));
const PARTIAL_DATA_OPTIONS = Object.freeze(copyWith(OPTIONS, { skipMissingProperties: true }));

/**
 * Validates `context.data` (an object, or each item of an array) against a class-validator DTO
 * and replaces it with the validated plain copy. Unknown fields and bad values give 400 with
 * per-field `errors` (at most `MAX_FIELD_ERRORS` of them). `partial` (for patch) skips missing
 * fields. The shape (declared keys, sizes: `DATA_LIMITS`) is checked first, in one bounded pass,
 * so the libraries only ever see data whose size the DTO bounds. `setByServer` fields (the owner)
 * are in no DTO: a client's value is dropped (the service's hooks set the server's), an internal
 * caller's is kept as it is.
 */
export function validateData<T extends object>(
  dto: ClassConstructor<T>,
  options: { partial?: boolean; setByServer?: readonly string[] } = {},
) {
  const { plainToInstance } = classTransformer();
  const { validate } = classValidator();
  const setByServer = options.setByServer ?? [];
  const validatorOptions = options.partial === true ? PARTIAL_DATA_OPTIONS : WHOLE_DATA_OPTIONS;
  return async (context: HookContext): Promise<void> => {
    const sent: unknown[] = Array.isArray(context.data) ? context.data : [context.data];
    if (sent.length > DATA_LIMITS.items)
      throw new BadRequest(`At most ${DATA_LIMITS.items} items can be sent in one call`);
    const items = sent.map((item) => dataWithout(item, setByServer));
    const errors = new FieldErrors();
    const budget = { values: DATA_LIMITS.values };
    for (const item of items) {
      checkDataShape(item, dto, errors, budget);
      if (!errors.empty) throw errors.toBadRequest('Invalid data');
    }
    const internal = context.params.provider === undefined;
    const validated: object[] = [];
    // One item after the other: the first invalid item ends the call.
    for (const [index, item] of items.entries()) {
      const instance = plainToInstance(dto, item, { excludeExtraneousValues: false });
      const failures = await validate(instance, validatorOptions);
      if (failures.length > 0) throw toBadRequest('Invalid data', failures);
      // Class fields exist on every instance (ES2022 semantics); keep only what the caller sent.
      const fields = Object.fromEntries(Object.entries(instance).filter(([key]) => Object.hasOwn(item, key)));
      validated.push(internal ? copyWith(fields, onlyFields(sent[index] as object, setByServer)) : fields);
    }
    context.data = Array.isArray(context.data) ? validated : validated[0];
  };
}

/** The item without `fields` (a copy only when it has one of them); refuses what is not an object. */
function dataWithout(item: unknown, fields: readonly string[]): object {
  if (!isRecord(item)) throw new BadRequest('The data must be an object');
  return fields.some((field) => Object.hasOwn(item, field)) ? withoutFields(item, fields) : item;
}

function onlyFields(item: object, fields: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(
    fields
      .filter((field) => Object.hasOwn(item, field))
      .map((field) => [field, (item as Record<string, unknown>)[field]]),
  );
}
