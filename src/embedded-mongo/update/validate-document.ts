import { ObjectId, type Document } from 'bson';
import { CommandError } from '../base/command-error';
import { idFirst } from '../query/id-first';

/** Checks a document about to be stored and returns it with `_id` first (generated when absent). */
export function prepareForStorage(doc: unknown): Document {
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc))
    throw new CommandError('TypeMismatch', 'document must be an object');
  const stored = '_id' in doc ? idFirst(doc as Document) : { _id: new ObjectId(), ...(doc as Document) };
  validateId(stored._id);
  return stored;
}

export function validateId(id: unknown): void {
  if (Array.isArray(id)) throw new CommandError('InvalidIdField', "The '_id' value cannot be of type array");
  if (id instanceof RegExp) throw new CommandError('InvalidIdField', "The '_id' value cannot be of type regex");
  if (id === undefined) throw new CommandError('InvalidIdField', "The '_id' value cannot be undefined");
  if (id !== null && typeof id === 'object' && id.constructor === Object) assertNoDollarKeys(id as Document, '_id');
}

function assertNoDollarKeys(value: Document, path: string): void {
  for (const [key, inner] of Object.entries(value)) {
    if (key.startsWith('$')) {
      throw new CommandError(
        'DollarPrefixedFieldName',
        `_id fields may not contain '$'-prefixed fields: ${key} is not valid for storage.`,
      );
    }
    if (inner !== null && typeof inner === 'object' && inner.constructor === Object)
      assertNoDollarKeys(inner as Document, `${path}.${key}`);
  }
}
