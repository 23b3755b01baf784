import { Conflict } from '../../domain/errors';

type AnyRecord = Record<string, any>;

/**
 * Refuses records that would share a value of a unique field with another stored record or with
 * each other, like a unique index: 409 naming only the field. `records` are about to be stored;
 * those with an id replace their stored version, which is therefore not compared. Records
 * without the field are not compared (as a sparse index).
 */
export function assertUniqueFields(records: readonly AnyRecord[], store: ReadonlyMap<string, AnyRecord>, idField: string, fields: readonly string[]): void {
  if (fields.length === 0) return;
  const replaced = new Set(records.filter((record) => record[idField] !== undefined).map((record) => String(record[idField])));
  for (const field of fields) {
    const taken = new Set<string>();
    for (const [key, stored] of store) {
      const value = valueKey(stored[field]);
      if (value !== undefined && !replaced.has(key)) taken.add(value);
    }
    for (const record of records) {
      const value = valueKey(record[field]);
      if (value === undefined) continue;
      if (taken.has(value)) throw new Conflict(`A record with the same ${field} already exists`, { fields: [field] });
      taken.add(value);
    }
  }
}

/** One string per distinct value (type-tagged, so 1 and '1' differ); undefined for a missing value. */
function valueKey(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (value instanceof Date) return `date:${value.getTime()}`;
  if (typeof value === 'object' && value !== null) return `json:${JSON.stringify(value)}`;
  return `${typeof value}:${String(value)}`;
}
