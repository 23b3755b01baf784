import { HEADER_SIZE, MAX_MESSAGE_SIZE } from './wire-constants';
import { ProtocolError } from './protocol-error';

export interface RawMessage {
  readonly requestId: number;
  readonly responseTo: number;
  readonly opCode: number;
  /** Bytes after the 16-byte header. */
  readonly body: Buffer;
}

/**
 * Frames a TCP byte stream into wire messages. Chunks are kept in a list and joined once per
 * message, so a 48 MB insert arriving in 64 KB pieces costs one copy rather than hundreds.
 */
export class MessageReader {
  private chunks: Buffer[] = [];
  private buffered = 0;

  constructor(private readonly maxMessageSize = MAX_MESSAGE_SIZE) {}

  /** Feeds bytes; returns every message now complete. Throws ProtocolError on a bad length. */
  push(chunk: Buffer): RawMessage[] {
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    const messages: RawMessage[] = [];
    while (this.buffered >= 4) {
      const length = this.peekLength();
      if (length < HEADER_SIZE || length > this.maxMessageSize) {
        throw new ProtocolError(`invalid message length ${length} (allowed ${HEADER_SIZE}..${this.maxMessageSize})`);
      }
      if (this.buffered < length) break;
      messages.push(parseFrame(this.take(length)));
    }
    return messages;
  }

  private peekLength(): number {
    const first = this.chunks[0];
    if (first.length >= 4) return first.readInt32LE(0);
    this.chunks = [Buffer.concat(this.chunks)];
    return this.chunks[0].readInt32LE(0);
  }

  private take(length: number): Buffer {
    const joined = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks, this.buffered);
    const frame = joined.subarray(0, length);
    const rest = joined.subarray(length);
    this.chunks = rest.length > 0 ? [rest] : [];
    this.buffered = rest.length;
    return frame;
  }
}

function parseFrame(frame: Buffer): RawMessage {
  return {
    requestId: frame.readInt32LE(4),
    responseTo: frame.readInt32LE(8),
    opCode: frame.readInt32LE(12),
    body: frame.subarray(HEADER_SIZE),
  };
}

/** Writes the standard header in front of a body. */
export function frameMessage(opCode: number, requestId: number, responseTo: number, body: Buffer[]): Buffer {
  const bodyLength = body.reduce((sum, part) => sum + part.length, 0);
  const header = Buffer.alloc(HEADER_SIZE);
  header.writeInt32LE(HEADER_SIZE + bodyLength, 0);
  header.writeInt32LE(requestId, 4);
  header.writeInt32LE(responseTo, 8);
  header.writeInt32LE(opCode, 12);
  return Buffer.concat([header, ...body], HEADER_SIZE + bodyLength);
}
