import type { ValidationError } from 'class-validator';
import { BadRequest } from '../../domain/errors';

/** One 400 with the problems per field: `errors: { field: ['message', ...] }` (nested fields dotted). */
export function toBadRequest(message: string, failures: readonly ValidationError[]): BadRequest {
  const errors: Record<string, string[]> = {};
  const collect = (items: readonly ValidationError[], prefix: string) => {
    for (const item of items) {
      const field = prefix ? `${prefix}.${item.property}` : item.property;
      if (item.constraints) errors[field] = Object.values(item.constraints);
      if (item.children?.length) collect(item.children, field);
    }
  };
  collect(failures, '');
  const error = new BadRequest(message);
  error.errors = errors;
  return error;
}
