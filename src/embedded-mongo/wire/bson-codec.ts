import { BSON, type Document } from 'bson';
import { ProtocolError } from './protocol-error';

/** Reads the BSON document that starts at `offset`, checking its length against the frame first. */
export function readDocumentAt(buffer: Buffer, offset: number, end: number): { doc: Document; next: number } {
  if (offset + 5 > end) throw new ProtocolError('truncated BSON document');
  const size = buffer.readInt32LE(offset);
  if (size < 5 || offset + size > end) throw new ProtocolError(`BSON document length ${size} overruns its section`);
  try {
    return { doc: BSON.deserialize(buffer.subarray(offset, offset + size)), next: offset + size };
  } catch (error) {
    throw new ProtocolError(`malformed BSON: ${(error as Error).message}`);
  }
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
