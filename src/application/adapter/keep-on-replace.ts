import { FORBIDDEN_KEYS } from '../query/query-limits';

/**
 * Checks the `keepOnReplace` option when a store is built: top-level field names only (a store
 * keeps each one as a whole in the same single-record write that replaces the rest), so no
 * empty name, no `$` prefix, no dotted path and none of the prototype keys. A mistake here is
 * the application's, not a client's: a plain Error at start-up.
 */
export function assertKeepOnReplace(fields: unknown): void {
  if (fields === undefined) return;
  if (!Array.isArray(fields)) throw new Error('keepOnReplace must be a list of field names');
  for (const field of fields) {
    if (
      typeof field !== 'string' ||
      field === '' ||
      field.startsWith('$') ||
      field.includes('.') ||
      FORBIDDEN_KEYS.has(field)
    ) {
      throw new Error(`keepOnReplace takes top-level field names; '${String(field)}' is not one`);
    }
  }
}
