import { BSON, type Document } from 'bson';
import { decodeStoredDocument } from '../wire/bson-codec';

/**
 * Documents go to disk as BSON, never JSON, so every BSON type survives. Decoding goes through the
 * wire layer's decoder, so a recovered document is the very value model the live server held.
 */
export function encodeStored(doc: Document): Uint8Array {
  return BSON.serialize(doc);
}

/** Splits a payload of concatenated BSON documents. */
export function decodeStoredSequence(payload: Buffer): Document[] {
  const docs: Document[] = [];
  for (let offset = 0; offset < payload.length;) {
    const size = payload.readInt32LE(offset);
    if (size < 5 || offset + size > payload.length) throw new Error(`malformed BSON sequence at byte ${offset}`);
    docs.push(decodeStoredDocument(payload.subarray(offset, offset + size)));
    offset += size;
  }
  return docs;
}
