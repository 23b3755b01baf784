import { Conflict } from '../../domain/errors';

type AnyRecord = Record<string, any>;

/**
 * Refuses records that would share a value of a unique field with another stored record or with
 * each other, like a unique index: 409 naming only the field. `records` are about to be stored;
 * those with an id replace their stored version, which is therefore not compared. Records
 * without the field are not compared (as a sparse index).
 */
export function assertUniqueFields(
  records: readonly AnyRecord[],
  store: ReadonlyMap<string, AnyRecord>,
  idField: string,
  keys: readonly (string | readonly string[])[],
): void {
  if (keys.length === 0) return;
  const replaced = new Set(
    records.filter((record) => record[idField] !== undefined).map((record) => String(record[idField])),
  );
  for (const key of keys) {
    const fields = typeof key === 'string' ? [key] : key;
    const taken = new Set<string>();
    for (const [id, stored] of store) {
      const value = compoundKey(stored, fields);
      if (value !== undefined && !replaced.has(id)) taken.add(value);
    }
    for (const record of records) {
      const value = compoundKey(record, fields);
      if (value === undefined) continue;
      if (taken.has(value))
        throw new Conflict(`A record with the same ${fields.join(', ')} already exists`, { fields: [...fields] });
      taken.add(value);
    }
  }
}

/** The values of `fields` as one string; undefined when the record has none of them. */
function compoundKey(record: AnyRecord, fields: readonly string[]): string | undefined {
  if (fields.length === 1) return valueKey(record[fields[0]]);
  if (fields.every((field) => record[field] === undefined)) return undefined;
  return fields.map((field) => valueKey(record[field]) ?? 'missing').join('\u0000');
}

/** One string per distinct value (type-tagged, so 1 and '1' differ); undefined for a missing value. */
function valueKey(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (value instanceof Date) return `date:${value.getTime()}`;
  if (typeof value === 'object' && value !== null) return `json:${JSON.stringify(value)}`;
  return `${typeof value}:${String(value)}`;
}
