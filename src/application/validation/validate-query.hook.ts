import type { ClassConstructor } from 'class-transformer';
import { echo, echoValue } from '../../domain/echo';
import { BadRequest } from '../../domain/errors';
import { copyWith } from '../../domain/plain-record';
import { mapConditions, mapOperands } from '../../domain/query-conditions';
import type { HookContext } from '../hooks/hook-context';
import { convertQueryValue, declaredType } from './convert-query-value';
import { shapeOf } from './dto-shape';
import { toBadRequest } from './validation-errors';
import { classTransformer, classValidator } from './validation-libraries';

/**
 * Validates the conditions of `params.query` against a DTO of queryable fields: unknown fields
 * are a 400, URL strings are converted to the declared types (also inside operators and `$or`/
 * `$and` branches), and each converted value must pass the field's validators. `$sort` and
 * `$select` may name only those fields (and the id field); the adapter validates the rest of
 * the filters. `idField`: the service's id field (default: the service's `id`).
 */
export function validateQuery<T extends object>(dto: ClassConstructor<T>, options: { idField?: string } = {}) {
  // The fields with validators (as the data whitelist reads them), so a DTO needs no class-field initializers.
  const known = shapeOf(dto).fields;
  return async (context: HookContext): Promise<void> => {
    const query = context.params.query;
    if (query === undefined) return;
    if (typeof query !== 'object' || query === null || Array.isArray(query))
      throw new BadRequest('The query must be an object');
    // The id field is always queryable; the adapter converts and validates ids itself. The
    // definition names it: a service bound to another server has no store here to ask.
    const idField = options.idField ?? (context.service as { id?: string })?.id ?? 'id';
    const isField = (name: string) => known.has(name) || name === idField;
    assertFieldsNamed(query as Record<string, unknown>, isField);
    const checks: ValueCheck[] = [];
    const converted = mapConditions(query as Record<string, unknown>, {
      field(key, value) {
        // Filters and operators such as `$text` are the adapter's to validate.
        if (key.startsWith('$') || key === idField) return value;
        if (!known.has(key))
          throw new BadRequest(`'${echo(key)}' is not a queryable field`, { [echo(key)]: echoValue(value) });
        return convertField(dto, key, value, checks);
      },
    });
    // One value after the other: the first invalid value ends the call.
    for (const { field, value } of checks) await checkValue(dto, field, value);
    context.params = copyWith(context.params, { query: converted });
  };
}

/** `$sort` keys and `$select` entries must be queryable fields, like conditions. */
function assertFieldsNamed(query: Record<string, unknown>, isField: (name: string) => boolean): void {
  const sort = query.$sort;
  if (typeof sort === 'object' && sort !== null && !Array.isArray(sort)) {
    for (const name of Object.keys(sort))
      if (!isField(name)) throw new BadRequest(`'${echo(name)}' is not a sortable field`, { $sort: echo(name) });
  }
  const select = query.$select;
  for (const name of Array.isArray(select) ? select : []) {
    if (typeof name === 'string' && !isField(name))
      throw new BadRequest(`'${echo(name)}' is not a selectable field`, { $select: echo(name) });
  }
}

/** A converted value still to pass its field's validators. */
interface ValueCheck {
  readonly field: string;
  readonly value: unknown;
}

function convertField(dto: ClassConstructor<object>, field: string, value: unknown, checks: ValueCheck[]): unknown {
  if (Array.isArray(value)) throw new BadRequest(`'${echo(field)}' must be a single value or an operator object`);
  const type = declaredType(dto, field);
  return mapOperands(value, (raw) => {
    const result = convertQueryValue(field, type, raw);
    checks.push({ field, value: result });
    return result;
  });
}

async function checkValue(dto: ClassConstructor<object>, field: string, value: unknown): Promise<void> {
  if (value === null) return;
  const failures = await classValidator().validate(classTransformer().plainToInstance(dto, { [field]: value }), {
    skipMissingProperties: true,
    validationError: { target: false, value: false },
  });
  const relevant = failures.filter((failure) => failure.property === field);
  if (relevant.length > 0) throw toBadRequest('Invalid query', relevant);
}
