import { BadRequest } from '../../domain/errors';
import { FORBIDDEN_KEYS } from '../../application/query/query-limits';

export interface PatchConversion {
  /** Fields a patch must never change (the id field and `_id`). */
  protectedFields: readonly string[];
  /** Update operators the data may carry, e.g. ['$inc', '$push']; anything else is a 400. */
  allowedOperators: readonly string[];
}

export type UpdateDocument = Record<string, Record<string, unknown>>;

/**
 * Turns patch data into a MongoDB update document. Plain keys become `$set`; `$` keys are update
 * operators and must be listed in `allowedOperators` (mass-assignment through `$inc`, `$unset`
 * or `$rename` is opt-in per service). Protected fields are dropped from every operator, also as
 * a `$rename` target, so a patch never changes the id. Returns `{}` when nothing is left to do.
 */
export function patchToUpdate(data: Record<string, unknown>, conversion: PatchConversion): UpdateDocument {
  const allowed = new Set(conversion.allowedOperators);
  const isProtected = (field: string) => conversion.protectedFields.some((id) => field === id || field.startsWith(`${id}.`));
  const update: UpdateDocument = {};
  const set: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    assertField(key);
    if (!key.startsWith('$')) {
      if (!isProtected(key)) set[key] = value;
      continue;
    }
    if (!allowed.has(key)) throw new BadRequest(`Update operator ${key} is not allowed`);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new BadRequest(`${key} needs an object of fields`);
    const fields: Record<string, unknown> = {};
    for (const [field, operand] of Object.entries(value)) {
      assertField(field);
      if (field.startsWith('$')) throw new BadRequest(`Invalid field name '${field}' in ${key}`);
      if (isProtected(field) || (key === '$rename' && typeof operand === 'string' && isProtected(operand))) continue;
      fields[field] = operand;
    }
    // Plain keys win over the same field in an explicit `$set`, whatever their order in the data.
    if (key === '$set') Object.assign(set, fields, { ...set });
    else if (Object.keys(fields).length > 0) update[key] = fields;
  }
  if (Object.keys(set).length > 0) update.$set = set;
  return update;
}

function assertField(field: string): void {
  if (field === '' || FORBIDDEN_KEYS.has(field) || field.split('.').some((part) => FORBIDDEN_KEYS.has(part))) {
    throw new BadRequest(`Invalid field name '${field}'`);
  }
}
