import type { Document } from 'bson';
import { setOwnField } from './own-field';

/** mongod always returns `_id` as the first field; mingo's projections put it last. */
export function idFirst(doc: Document): Document {
  if (!('_id' in doc)) return doc;
  const keys = Object.keys(doc);
  if (keys[0] === '_id') return doc;
  const ordered: Document = { _id: doc._id };
  for (const key of keys) if (key !== '_id') setOwnField(ordered, key, doc[key]);
  return ordered;
}
