import { BadRequest } from '../../domain/errors';
import { echo } from '../../domain/echo';
import { copyWith } from '../../domain/plain-record';
import { FORBIDDEN_KEYS } from '../query/query-limits';

export interface PatchRules {
  /** Fields a patch never changes (the id field): dropped from every operator, also as a `$rename` target. */
  protectedFields: readonly string[];
  /** Update operators the data may carry, e.g. `['$inc']`; any other `$` key is a 400. */
  allowedOperators: readonly string[];
}

/** Patch data as every store applies it. */
export interface CheckedPatch {
  /** Fields to assign: plain keys and an explicit `$set` (plain keys win over the same field in it). */
  readonly set: Record<string, unknown>;
  /** Every other update operator: operator -> field path -> operand. */
  readonly operators: Record<string, Record<string, unknown>>;
}

/**
 * Checks patch data once, for every store: plain keys are assigned; a `$` key is an update
 * operator and must be allowed (mass assignment through `$inc`, `$unset` or `$rename` is opt-in
 * per service) with an object of fields; field paths may not be empty, start with `$` or reach
 * prototypes; protected fields are dropped, so a patch never changes the id.
 */
export function checkPatchData(data: Record<string, unknown>, rules: PatchRules): CheckedPatch {
  const allowed = new Set(rules.allowedOperators);
  const isProtected = (path: string) =>
    rules.protectedFields.some((field) => path === field || path.startsWith(`${field}.`));
  const plain: Record<string, unknown> = {};
  const explicitSet: Record<string, unknown> = {};
  const operators: Record<string, Record<string, unknown>> = {};
  for (const [key, value] of Object.entries(data)) {
    if (!key.startsWith('$')) {
      assertPath(key);
      if (!isProtected(key)) plain[key] = value;
      continue;
    }
    if (!allowed.has(key)) throw new BadRequest(`Update operator ${echo(key)} is not allowed`);
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      throw new BadRequest(`${echo(key)} needs an object of fields`);
    const fields: Record<string, unknown> = {};
    for (const [path, operand] of Object.entries(value)) {
      assertPath(path, key);
      if (isProtected(path) || (key === '$rename' && typeof operand === 'string' && isProtected(operand))) continue;
      fields[path] = operand;
    }
    if (key === '$set') Object.assign(explicitSet, fields);
    else if (Object.keys(fields).length > 0) operators[key] = fields;
  }
  return { set: copyWith(explicitSet, plain), operators };
}

function assertPath(path: string, operator?: string): void {
  if (path.startsWith('$') || path.split('.').some((part) => part === '' || FORBIDDEN_KEYS.has(part))) {
    throw new BadRequest(`Invalid field name '${echo(path)}'${operator ? ` in ${echo(operator)}` : ''}`);
  }
}
