import type { Document } from 'bson';
import { Aggregator } from 'mingo';
import { CommandError } from '../base/command-error';
import { mingoOptions } from './mingo-options';

/**
 * Evaluates a command's `let` document once: mingo takes variables literally, so
 * `{ x: { $literal: 'a' } }` must become `{ x: 'a' }` before it is handed over.
 */
export function evaluateLet(...lets: unknown[]): Document | undefined {
  const merged: Document = {};
  for (const value of lets) {
    if (value === undefined || value === null) continue;
    if (typeof value !== 'object' || Array.isArray(value))
      throw new CommandError('TypeMismatch', "'let' must be a document");
    Object.assign(merged, value);
  }
  if (Object.keys(merged).length === 0) return undefined;
  for (const name of Object.keys(merged)) {
    // User variables start with a lowercase letter or a non-ASCII character.
    if (!/^([a-z_]|[^\p{ASCII}])[\p{L}\p{N}_]*$/u.test(name)) {
      throw new CommandError('FailedToParse', `'${name}' starts with an invalid character for a user variable name`);
    }
  }
  const [evaluated] = new Aggregator([{ $replaceWith: merged }], mingoOptions({}, merged)).run([{}]);
  return evaluated as Document;
}
