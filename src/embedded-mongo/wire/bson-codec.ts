import { BSON, type Document } from 'bson';
import { TYPED_DESERIALIZE, toServerDocument } from './bson-types';
import { ProtocolError } from './protocol-error';
import { withoutGossip } from './without-gossip';

/**
 * Reads the BSON document that starts at `offset`, checking its length against the frame first.
 * Numeric types are kept (int32 / int64 / double); `promoteTopLevel` is for a command body, whose
 * own arguments are promoted as the default decoder would while the data inside stays typed, and
 * whose gossiped `$clusterTime` is left out.
 */
export function readDocumentAt(
  buffer: Buffer,
  offset: number,
  end: number,
  promoteTopLevel = true,
): { doc: Document; next: number } {
  if (offset + 5 > end) throw new ProtocolError('truncated BSON document');
  const size = buffer.readInt32LE(offset);
  if (size < 5 || offset + size > end) throw new ProtocolError(`BSON document length ${size} overruns its section`);
  try {
    const bytes = buffer.subarray(offset, offset + size);
    const doc = BSON.deserialize(promoteTopLevel ? withoutGossip(bytes) : bytes, TYPED_DESERIALIZE);
    return { doc: toServerDocument(doc, promoteTopLevel), next: offset + size };
  } catch (error) {
    throw new ProtocolError(`malformed BSON: ${(error as Error).message}`);
  }
}

/** Decodes a stored document keeping its numeric types (for storage engines reading BSON back). */
export function decodeStoredDocument(bytes: Uint8Array): Document {
  return toServerDocument(BSON.deserialize(bytes, TYPED_DESERIALIZE));
}

const TERMINATOR = Buffer.from([0]);

/**
 * A reply as parts to frame: its BSON, with the trailer (BSON elements encoded beforehand: bytes
 * of fields, without a document's length and terminator) spliced in before the terminator.
 */
export function encodeReply(reply: Document, trailer?: Buffer): Buffer[] {
  const body = encodeDocument(reply);
  if (!trailer) return [body];
  body.writeInt32LE(body.length + trailer.length, 0);
  return [body.subarray(0, body.length - 1), trailer, TERMINATOR];
}

/** bson serialises into a 17 MB scratch buffer; a larger reply grows it once and retries. */
export function encodeDocument(doc: Document): Buffer {
  try {
    const bytes = BSON.serialize(doc);
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    BSON.setInternalBufferSize(BSON.calculateObjectSize(doc) + 1024);
    const bytes = BSON.serialize(doc);
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
}

/** Reads a NUL-terminated string (collection names, sequence identifiers). */
export function readCString(buffer: Buffer, offset: number, end: number): { value: string; next: number } {
  const nul = buffer.indexOf(0, offset);
  if (nul < 0 || nul >= end) throw new ProtocolError('unterminated cstring');
  return { value: buffer.toString('utf8', offset, nul), next: nul + 1 };
}
