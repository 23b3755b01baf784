import { BSON, ObjectId, type Document } from 'bson';
import type { UpdateDescription } from './change-record';

/**
 * What an update changed, as a change event describes it: fields set (dotted paths into embedded
 * documents and array elements that changed in place), fields removed, and arrays cut shorter.
 */
export function describeUpdate(before: Document, after: Document): UpdateDescription {
  const description: UpdateDescription = { updatedFields: {}, removedFields: [], truncatedArrays: [] };
  diffObjects(before, after, '', description);
  return description;
}

/** Type byte and NUL of an element: its size is these, its name and its value. */
const ELEMENT_FRAME = 2;
/** Length and terminator of a document or array. */
const DOCUMENT_FRAME = 5;
/**
 * `{ field, newSize }` without the field's characters: the document, two element frames and names, a string's length
 * and NUL, an int32.
 */
const TRUNCATION_FRAME = DOCUMENT_FRAME + ELEMENT_FRAME * 2 + 'field'.length + 'newSize'.length + 4 + 1 + 4;

/**
 * The BSON size of an update description, for the history's byte bound: only `updatedFields`
 * goes through the serialiser's measure; its two arrays (of strings, of `{ field, newSize }`),
 * empty after most updates, are counted here, which took a third of the time in a loop.
 */
export function updateDescriptionBytes(description: UpdateDescription): number {
  let bytes =
    DOCUMENT_FRAME + ELEMENT_FRAME * 3 + 'updatedFields'.length + 'removedFields'.length + 'truncatedArrays'.length;
  bytes += BSON.calculateObjectSize(description.updatedFields) + DOCUMENT_FRAME * 2;
  description.removedFields.forEach((field, index) => {
    bytes += ELEMENT_FRAME + String(index).length + 4 + Buffer.byteLength(field) + 1;
  });
  description.truncatedArrays.forEach(({ field }, index) => {
    bytes += ELEMENT_FRAME + String(index).length + TRUNCATION_FRAME + Buffer.byteLength(field);
  });
  return bytes;
}

function diffObjects(before: Document, after: Document, prefix: string, out: UpdateDescription): void {
  for (const key of Object.keys(before)) {
    if (!Object.hasOwn(after, key)) out.removedFields.push(prefix + key);
  }
  for (const [key, value] of Object.entries(after)) {
    if (!Object.hasOwn(before, key)) out.updatedFields[prefix + key] = value;
    else diffValues(before[key], value, prefix + key, out);
  }
}

function diffValues(before: unknown, after: unknown, path: string, out: UpdateDescription): void {
  if (sameValue(before, after)) return;
  if (isPlainObject(before) && isPlainObject(after)) {
    diffObjects(before, after, `${path}.`, out);
    return;
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    if (after.length < before.length) out.truncatedArrays.push({ field: path, newSize: after.length });
    after.forEach((element, index) => {
      if (index >= before.length) out.updatedFields[`${path}.${index}`] = element;
      else diffValues(before[index], element, `${path}.${index}`, out);
    });
    return;
  }
  out.updatedFields[path] = after;
}

function isPlainObject(value: unknown): value is Document {
  return (
    value !== null &&
    typeof value === 'object' &&
    (value.constructor === Object || Object.getPrototypeOf(value) === null)
  );
}

/** Equal as stored: same BSON type and bytes (so 1 and 1.0 differ, as they do in mongod's oplog). */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = Object.keys(a);
    const otherKeys = Object.keys(b);
    return (
      keys.length === otherKeys.length &&
      keys.every((key, index) => otherKeys[index] === key && sameValue(a[key], b[key]))
    );
  }
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((element, index) => sameValue(element, b[index]));
  if (Array.isArray(a) || Array.isArray(b) || isPlainObject(a) || isPlainObject(b)) return false;
  // The two types every update meets (`_id`, timestamps) compare without encoding them.
  if (a instanceof ObjectId) return b instanceof ObjectId && a.equals(b);
  if (a instanceof Date) return b instanceof Date && Object.is(a.getTime(), b.getTime());
  return Buffer.from(BSON.serialize({ v: a })).equals(Buffer.from(BSON.serialize({ v: b })));
}
