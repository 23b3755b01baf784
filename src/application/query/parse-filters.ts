import { BadRequest } from '../../domain/errors';
import { echo, echoValue } from '../../domain/echo';
import type { SortDirection } from '../../domain/query';
import { FORBIDDEN_KEYS } from './query-limits';

/** `$limit`/`$skip`: a non-negative integer, given as a number or a decimal string (URLs). */
export function parseCount(name: string, value: unknown): number {
  const number = typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isSafeInteger(number) || number < 0) {
    throw new BadRequest(`${name} must be a non-negative integer`, { [name]: echoValue(value) });
  }
  return number;
}

/** `$sort`: an object of field names to 1 or -1 (or '1' / '-1' from URLs). */
export function parseSort(value: unknown): Record<string, SortDirection> {
  if (!isObject(value) || Array.isArray(value))
    throw new BadRequest('$sort must be an object of field names to 1 or -1');
  const sort: Record<string, SortDirection> = {};
  for (const [field, direction] of Object.entries(value)) {
    assertFieldName('$sort', field);
    const parsed = direction === 1 || direction === '1' ? 1 : direction === -1 || direction === '-1' ? -1 : undefined;
    if (parsed === undefined)
      throw new BadRequest(`$sort values must be 1 or -1`, { $sort: { [echo(field)]: echoValue(direction) } });
    sort[field] = parsed;
  }
  return sort;
}

/** `$select`: an array of field names (no operators, no expressions). */
export function parseSelect(value: unknown): string[] {
  if (!Array.isArray(value)) throw new BadRequest('$select must be an array of field names');
  return value.map((field) => {
    if (typeof field !== 'string') throw new BadRequest('$select must be an array of field names');
    assertFieldName('$select', field);
    return field;
  });
}

export function assertFieldName(filter: string, field: string): void {
  if (
    field === '' ||
    field.startsWith('$') ||
    FORBIDDEN_KEYS.has(field) ||
    field.split('.').some((part) => FORBIDDEN_KEYS.has(part))
  ) {
    throw new BadRequest(`Invalid field name '${echo(field)}' in ${filter}`);
  }
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
