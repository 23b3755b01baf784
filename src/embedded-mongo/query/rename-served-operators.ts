import type { Document } from 'bson';
import { setOwnField } from './own-field';

/**
 * Query operators the server answers itself, under names mingo does not know (so its own
 * operator of the same name never runs): `$type` reads real BSON types, the `$bits*` operators
 * read 64-bit integers and BinData, and `$within` is mongod's deprecated alias of `$geoWithin`.
 */
export const SERVED_OPERATOR_NAMES: Readonly<Record<string, string>> = {
  $type: '$bsonType',
  $bitsAllSet: '$bsonBitsAllSet',
  $bitsAnySet: '$bsonBitsAnySet',
  $bitsAllClear: '$bsonBitsAllClear',
  $bitsAnyClear: '$bsonBitsAnyClear',
  $within: '$geoWithin',
};

/** Renames the served operators of a filter (not inside `$expr` / `$where`, where names mean expressions). */
export function renameServedOperators(filter: Document): Document {
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (value === null || typeof value !== 'object' || value.constructor !== Object) return value;
    const out: Document = {};
    for (const [key, item] of Object.entries(value)) {
      if (key === '$expr' || key === '$where') setOwnField(out, key, item);
      else setOwnField(out, SERVED_OPERATOR_NAMES[key] ?? key, walk(item));
    }
    return out;
  };
  return walk(filter) as Document;
}
