import type { Document } from 'bson';
import { encodeReply, readCString, readDocumentAt } from './bson-codec';
import { frameMessage } from './message-reader';
import { ProtocolError } from './protocol-error';
import { MSG_FLAG_CHECKSUM_PRESENT, MSG_FLAG_MORE_TO_COME, OP_MSG } from './wire-constants';

export interface ParsedOpMsg {
  /** The kind-0 body with each kind-1 sequence attached under its identifier. */
  readonly command: Document;
  /** The client wants no reply (w:0 writes, endSessions). */
  readonly moreToCome: boolean;
}

/** Parses an OP_MSG body. The optional CRC32C trailer is skipped rather than verified: TCP already checks. */
export function parseOpMsg(body: Buffer): ParsedOpMsg {
  if (body.length < 5) throw new ProtocolError('OP_MSG too short');
  const flags = body.readUInt32LE(0);
  const end = flags & MSG_FLAG_CHECKSUM_PRESENT ? body.length - 4 : body.length;
  let offset = 4;
  let command: Document | undefined;
  const sequences: Array<[string, Document[]]> = [];
  while (offset < end) {
    const kind = body[offset];
    offset += 1;
    if (kind === 0) {
      if (command) throw new ProtocolError('OP_MSG has more than one body section');
      const read = readDocumentAt(body, offset, end);
      command = read.doc;
      offset = read.next;
    } else if (kind === 1) {
      const read = readSequence(body, offset, end);
      sequences.push([read.identifier, read.documents]);
      offset = read.next;
    } else {
      throw new ProtocolError(`unknown OP_MSG section kind ${kind}`);
    }
  }
  if (!command) throw new ProtocolError('OP_MSG without a body section');
  for (const [identifier, documents] of sequences) command[identifier] = documents;
  return { command, moreToCome: (flags & MSG_FLAG_MORE_TO_COME) !== 0 };
}

function readSequence(
  body: Buffer,
  offset: number,
  end: number,
): { identifier: string; documents: Document[]; next: number } {
  if (offset + 4 > end) throw new ProtocolError('truncated document sequence');
  const size = body.readInt32LE(offset);
  const sequenceEnd = offset + size;
  if (size < 5 || sequenceEnd > end) throw new ProtocolError(`document sequence length ${size} overruns the message`);
  const name = readCString(body, offset + 4, sequenceEnd);
  const documents: Document[] = [];
  let position = name.next;
  // Each iteration consumes at least 5 bytes, so the loop is bounded by the sequence size.
  while (position < sequenceEnd) {
    const read = readDocumentAt(body, position, sequenceEnd, false);
    documents.push(read.doc);
    position = read.next;
  }
  return { identifier: name.value, documents, next: sequenceEnd };
}

/** Builds an OP_MSG reply with a single kind-0 section and no flags; `trailer`: see encodeReply. */
export function encodeOpMsgReply(requestId: number, responseTo: number, reply: Document, trailer?: Buffer): Buffer {
  const prefix = Buffer.alloc(5); // flagBits = 0, section kind = 0
  return frameMessage(OP_MSG, requestId, responseTo, [prefix, ...encodeReply(reply, trailer)]);
}
