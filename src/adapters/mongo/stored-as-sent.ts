import { isPlainObject } from '../../domain/plain-record';
import { isObjectIdLike } from './object-id';

/**
 * True when a document reads back from MongoDB exactly as it was sent: made only of well-formed
 * strings, numbers, booleans, null, Dates, ObjectIds, plain objects and dense arrays. Anything
 * BSON changes on the way (undefined becomes null or goes, -0 becomes 0, a lone surrogate becomes U+FFFD, a
 * Buffer becomes a Binary, a class instance a plain object, ...) answers false. Depth is bounded
 * by what the driver accepted (it refuses documents nested beyond BSON's limit).
 */
export function storedAsSent(value: unknown): boolean {
  switch (typeof value) {
    case 'string':
      return (value as string & { isWellFormed(): boolean }).isWellFormed();
    case 'number':
      // -0 is stored as the integer 0.
      return !Object.is(value, -0);
    case 'boolean':
      return true;
    case 'object':
      break;
    default:
      return false;
  }
  if (value === null || value instanceof Date || isObjectIdLike(value)) return true;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++)
      if (!(index in value) || !storedAsSent(value[index])) return false;
    return true;
  }
  if (!isPlainObject(value)) return false;
  for (const key of Object.keys(value)) if (!storedAsSent(value[key])) return false;
  return true;
}

/** The document as MongoDB keeps it: `_id` first, the other fields in their order. */
export function withIdFirst(document: Record<string, unknown>): Record<string, unknown> {
  const ordered: Record<string, unknown> = { _id: document._id };
  for (const key of Object.keys(document)) if (key !== '_id') ordered[key] = document[key];
  return ordered;
}
