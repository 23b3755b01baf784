import type { ValidationError } from 'class-validator';
import { echo } from '../../domain/echo';
import { BadRequest } from '../../domain/errors';

/** How many fields one validation error lists; past it the error says the list was cut. */
export const MAX_FIELD_ERRORS = 20;

/**
 * The per-field problems of one 400, bounded: at most `MAX_FIELD_ERRORS` fields, each field name
 * and message cut short, so that no input makes the answer (or the work of building it) grow
 * with its size.
 */
export class FieldErrors {
  private readonly errors: Record<string, string[]> = {};
  private count = 0;
  private cut = false;

  /** True once the list holds `MAX_FIELD_ERRORS` fields: callers stop looking for more. */
  get full(): boolean {
    return this.count >= MAX_FIELD_ERRORS;
  }

  get empty(): boolean {
    return this.count === 0;
  }

  add(field: string, messages: readonly string[]): void {
    const name = echo(field);
    if (Object.hasOwn(this.errors, name)) {
      this.errors[name]!.push(...messages.map(echo));
      return;
    }
    if (this.full) {
      this.cut = true;
      return;
    }
    // defineProperty: a field named `__proto__` must stay an ordinary key of the answer.
    Object.defineProperty(this.errors, name, {
      value: messages.map(echo),
      enumerable: true,
      writable: true,
      configurable: true,
    });
    this.count++;
  }

  /** Records that more problems exist than were looked at (the search stopped early). */
  markCut(): void {
    this.cut = true;
  }

  toBadRequest(message: string): BadRequest {
    const error = new BadRequest(
      this.cut ? `${message} (the first ${MAX_FIELD_ERRORS} problems are listed; more were cut)` : message,
    );
    error.errors = this.errors;
    return error;
  }
}

/** One 400 with the problems per field: `errors: { field: ['message', ...] }` (nested fields dotted), bounded. */
export function toBadRequest(message: string, failures: readonly ValidationError[]): BadRequest {
  const errors = new FieldErrors();
  // Explicit stack, visited in order: class-validator nests one level per nested DTO.
  const stack: { item: ValidationError; prefix: string }[] = failures.map((item) => ({ item, prefix: '' })).reverse();
  while (stack.length > 0) {
    const { item, prefix } = stack.pop()!;
    const field = prefix ? `${prefix}.${item.property}` : item.property;
    if (item.constraints) {
      if (errors.full) {
        errors.markCut();
        break;
      }
      errors.add(field, Object.values(item.constraints));
    }
    const children = item.children ?? [];
    for (let index = children.length - 1; index >= 0; index--) stack.push({ item: children[index]!, prefix: field });
  }
  return errors.toBadRequest(message);
}
