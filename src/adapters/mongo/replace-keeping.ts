import type { Document } from 'mongodb';

/**
 * An update pipeline that replaces a document with `replacement` but keeps `_id` and the stored
 * values of `kept`, as one single-document write (no read before it, so nothing written to a
 * kept field in between is lost). The replacement goes in as `$literal`, so no value a client
 * sent is ever read as an expression (`'$likes'` stays that string). `{ field: '$field' }` omits
 * a field the stored document lacks, so the replacement's value, if any, stays then.
 * `kept` are top-level names (checked when the service is built).
 */
export function replaceKeeping(replacement: Document, kept: readonly string[]): Document[] {
  const stored: Document = { _id: '$_id' };
  for (const field of kept) stored[field] = `$${field}`;
  return [{ $replaceWith: { $mergeObjects: [{ _id: '$_id' }, { $literal: replacement }, stored] } }];
}
