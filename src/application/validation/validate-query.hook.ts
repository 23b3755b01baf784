import type { ClassConstructor } from 'class-transformer';
import { BadRequest } from '../../domain/errors';
import { LOGICAL_OPERATORS, STANDARD_FILTERS } from '../../domain/query';
import type { HookContext } from '../hooks/hook-context';
import { convertQueryValue, declaredType } from './convert-query-value';
import { toBadRequest } from './validation-errors';
import { classTransformer, classValidator } from './validation-libraries';

interface QueryFields {
  known: ReadonlySet<string>;
  idField: string;
}

const LIST_OPERATORS = new Set(['$in', '$nin', '$all']);
const PASS_THROUGH_OPERATORS = new Set(['$options', '$exists', '$regex', '$search']);

/**
 * Validates the conditions of `params.query` against a DTO of queryable fields: unknown fields
 * are a 400, URL strings are converted to the declared types (also inside operators and `$or`/
 * `$and` branches), and each converted value must pass the field's validators. Filters
 * (`$limit`, `$sort`, ...) are left to the adapter, which validates them.
 */
export function validateQuery<T extends object>(dto: ClassConstructor<T>) {
  const known = new Set(Object.keys(classTransformer().plainToInstance(dto, {}) as object));
  return async (context: HookContext): Promise<void> => {
    const query = context.params.query;
    if (query === undefined) return;
    if (typeof query !== 'object' || query === null || Array.isArray(query)) throw new BadRequest('The query must be an object');
    const checks: Promise<void>[] = [];
    // The id field is always queryable; the adapter converts and validates ids itself.
    const fields: QueryFields = { known, idField: (context.service as { id?: string })?.id ?? 'id' };
    context.params = { ...context.params, query: convertConditions(dto, fields, query as Record<string, unknown>, checks, 0) };
    await Promise.all(checks);
  };
}

function convertConditions(dto: ClassConstructor<object>, fields: QueryFields, query: Record<string, unknown>, checks: Promise<void>[], depth: number): Record<string, unknown> {
  if (depth > 8) throw new BadRequest('The query is nested too deeply');
  const converted: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(query)) {
    if ((STANDARD_FILTERS as readonly string[]).includes(key) || (key.startsWith('$') && !(LOGICAL_OPERATORS as readonly string[]).includes(key))) {
      converted[key] = value;
    } else if ((LOGICAL_OPERATORS as readonly string[]).includes(key)) {
      if (!Array.isArray(value)) throw new BadRequest(`${key} must be an array of queries`);
      converted[key] = value.map((branch) => {
        if (typeof branch !== 'object' || branch === null || Array.isArray(branch)) throw new BadRequest(`${key} must be an array of queries`);
        return convertConditions(dto, fields, branch as Record<string, unknown>, checks, depth + 1);
      });
    } else if (key === fields.idField) {
      converted[key] = value;
    } else {
      if (!fields.known.has(key)) throw new BadRequest(`'${key}' is not a queryable field`, { [key]: value });
      converted[key] = convertField(dto, key, value, checks);
    }
  }
  return converted;
}

function convertField(dto: ClassConstructor<object>, field: string, value: unknown, checks: Promise<void>[]): unknown {
  const type = declaredType(dto, field);
  const convertOne = (raw: unknown) => {
    const result = convertQueryValue(field, type, raw);
    const check = checkValue(dto, field, result);
    // A later field may throw before the checks are awaited: a failing check must not become an
    // unhandled rejection (which ends the process); `Promise.all(checks)` still sees it.
    check.catch(() => undefined);
    checks.push(check);
    return result;
  };
  if (typeof value !== 'object' || value === null || value instanceof Date) return convertOne(value);
  if (Array.isArray(value)) throw new BadRequest(`'${field}' must be a single value or an operator object`);
  const operators: Record<string, unknown> = {};
  for (const [operator, operand] of Object.entries(value)) {
    if (PASS_THROUGH_OPERATORS.has(operator)) operators[operator] = operand;
    else if (LIST_OPERATORS.has(operator) && Array.isArray(operand)) operators[operator] = operand.map(convertOne);
    else operators[operator] = convertOne(operand);
  }
  return operators;
}

async function checkValue(dto: ClassConstructor<object>, field: string, value: unknown): Promise<void> {
  if (value === null) return;
  const failures = await classValidator().validate(classTransformer().plainToInstance(dto, { [field]: value }), { skipMissingProperties: true, validationError: { target: false, value: false } });
  const relevant = failures.filter((failure) => failure.property === field);
  if (relevant.length > 0) throw toBadRequest('Invalid query', relevant);
}
