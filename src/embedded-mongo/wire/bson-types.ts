import { BSONSymbol, Double, Int32, Long, type Document } from 'bson';
import { isInt32 } from '../query/bson-numbers';

/** Deserialise options that keep int32, int64 and double apart (see `toServerValue`). */
export const TYPED_DESERIALIZE = { promoteValues: false, promoteLongs: false, bsonRegExp: false } as const;

/**
 * Rewrites a document decoded with `TYPED_DESERIALIZE` (in place) into the server's value model:
 * int32 and doubles that bson would write back unchanged become plain numbers, while integral
 * doubles keep `Double` and int64 keeps `Long`. With `promoteTopLevel`, the document's own scalar
 * fields are promoted as the default decoder would (command arguments such as `txnNumber`).
 */
export function toServerDocument(doc: Document, promoteTopLevel = false): Document {
  for (const key of Object.keys(doc)) {
    const value = doc[key];
    doc[key] = promoteTopLevel ? promoteScalar(toServerValue(value)) : toServerValue(value);
  }
  return doc;
}

export function toServerValue(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (value instanceof Int32) return value.value;
  if (value instanceof Double) return isInt32(value.value) ? value : value.value;
  if (value instanceof BSONSymbol) return value.valueOf();
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = toServerValue(value[i]);
    return value;
  }
  if (value.constructor === Object) return toServerDocument(value as Document);
  return value;
}

function promoteScalar(value: unknown): unknown {
  if (value instanceof Double) return value.value;
  if (value instanceof Long) {
    // Outside the safe range toNumber rounds to a number that is not a safe integer either.
    const number = value.toNumber();
    return Number.isSafeInteger(number) ? number : value;
  }
  return value;
}
