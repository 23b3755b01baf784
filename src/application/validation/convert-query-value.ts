import { echo, echoValue } from '../../domain/echo';
import { BadRequest } from '../../domain/errors';

type FieldType = 'string' | 'number' | 'boolean' | 'date' | 'other';

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** The declared type of a DTO property, read from the decorator metadata TypeScript emits. */
export function declaredType(dto: object, field: string): FieldType {
  const reflect = Reflect as unknown as { getMetadata?: (key: string, target: object, property: string) => unknown };
  const type = reflect.getMetadata?.('design:type', (dto as { prototype: object }).prototype, field);
  if (type === String) return 'string';
  if (type === Number) return 'number';
  if (type === Boolean) return 'boolean';
  if (type === Date) return 'date';
  return 'other';
}

/**
 * Converts one URL string to the field's type: '25' -> 25, 'true' -> true, and for number fields
 * an ISO date or millisecond string -> a millisecond timestamp (the seed stores dates as numbers).
 * Non-strings (internal calls) pass unchanged; unparseable strings are a 400.
 */
export function convertQueryValue(field: string, type: FieldType, value: unknown): unknown {
  if (typeof value !== 'string') return value;
  switch (type) {
    case 'number': {
      if (/^-?\d+(\.\d+)?(e[+-]?\d+)?$/i.test(value)) return Number(value);
      if (ISO_DATE.test(value) && !Number.isNaN(Date.parse(value))) return Date.parse(value);
      throw new BadRequest(`'${echo(field)}' must be a number`, { [echo(field)]: echoValue(value) });
    }
    case 'boolean':
      if (value === 'true') return true;
      if (value === 'false') return false;
      throw new BadRequest(`'${echo(field)}' must be true or false`, { [echo(field)]: echoValue(value) });
    case 'date':
      if (!Number.isNaN(Date.parse(value)) || /^\d+$/.test(value))
        return new Date(/^\d+$/.test(value) ? Number(value) : value);
      throw new BadRequest(`'${echo(field)}' must be a date`, { [echo(field)]: echoValue(value) });
    default:
      return value;
  }
}
