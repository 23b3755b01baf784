import type { ClassConstructor } from 'class-transformer';
import { echo } from '../../domain/echo';
import { BadRequest } from '../../domain/errors';
import { isPlainObject } from '../../domain/plain-record';
import { FORBIDDEN_KEYS } from '../query/query-limits';
import { shapeOf } from './dto-shape';
import type { FieldErrors } from './validation-errors';

/**
 * Bounds on call data, checked before class-transformer and class-validator see it: both walk
 * every key (class-transformer's key list costs the square of an object's width), so a wide or
 * long value under the body size limit would otherwise hold the event loop for seconds.
 */
export const DATA_LIMITS = Object.freeze({
  /** Items of one multi-create call. */
  items: 100,
  /** Elements of one array inside the data. */
  arrayLength: 1000,
  /** Keys of one object no DTO describes (the value of a free-form field). */
  objectKeys: 200,
  /** Objects, arrays and plain values in one call's data, every item included. */
  values: 10_000,
});

interface Visit {
  readonly value: unknown;
  /** The DTO the value must match, or undefined for free-form values. */
  readonly dto: ClassConstructor<object> | undefined;
  readonly path: string;
}

/**
 * Checks one item against its DTO's shape, spending at most `budget.values` visits (shared by the
 * items of one call): keys the DTO (or a nested DTO) does not declare, arrays and free-form objects
 * past the limits go to `errors`, and the walk stops as soon as `errors` is full or the budget is
 * spent. A `__proto__` / `constructor` / `prototype` key at any depth is refused at once
 * (class-transformer would skip it silently, so the whitelist would never see it).
 */
export function checkDataShape(
  item: object,
  dto: ClassConstructor<object>,
  errors: FieldErrors,
  budget: { values: number },
): void {
  const stack: Visit[] = [{ value: item, dto, path: '' }];
  while (stack.length > 0) {
    const { value, dto: expected, path } = stack.pop()!;
    if (--budget.values < 0) {
      errors.add(path || 'data', [`the data holds more than ${DATA_LIMITS.values} values`]);
      return errors.markCut();
    }
    if (typeof value !== 'object' || value === null) continue;
    if (Array.isArray(value)) {
      if (value.length > DATA_LIMITS.arrayLength)
        errors.add(path, [`must have at most ${DATA_LIMITS.arrayLength} elements`]);
      else
        for (let index = value.length - 1; index >= 0; index--)
          stack.push({ value: value[index], dto: expected, path: join(path, String(index)) });
    } else if (isPlainObject(value)) {
      // Class instances (dates, ids from internal callers) are values, not structure.
      if (expected === undefined) visitFreeObject(value, path, stack, errors);
      else visitDtoObject(value, expected, path, stack, errors);
    }
    if (errors.full) return errors.markCut();
  }
}

/** Only declared keys; nested DTO fields are checked against their own DTO. */
function visitDtoObject(
  value: object,
  dto: ClassConstructor<object>,
  path: string,
  stack: Visit[],
  errors: FieldErrors,
): void {
  const shape = shapeOf(dto);
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    refuseForbidden(key);
    if (!shape.fields.has(key)) {
      if (errors.full) return errors.markCut();
      errors.add(join(path, key), [`property ${key} should not exist`]);
      continue;
    }
    stack.push({ value: (value as Record<string, unknown>)[key], dto: shape.nested.get(key), path: join(path, key) });
  }
}

/** Any keys, but not more than `DATA_LIMITS.objectKeys` of them. */
function visitFreeObject(value: object, path: string, stack: Visit[], errors: FieldErrors): void {
  let keys = 0;
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    refuseForbidden(key);
    if (++keys > DATA_LIMITS.objectKeys) {
      errors.add(path, [`must have at most ${DATA_LIMITS.objectKeys} keys`]);
      return;
    }
    stack.push({ value: (value as Record<string, unknown>)[key], dto: undefined, path: join(path, key) });
  }
}

function refuseForbidden(key: string): void {
  if (FORBIDDEN_KEYS.has(key)) throw new BadRequest(`Invalid field name '${key}'`);
}

function join(path: string, key: string): string {
  return path === '' ? key : `${path}.${echo(key)}`;
}
