/** `\x03$clusterTime`: the type byte (embedded document) and name of the element drivers gossip. */
const GOSSIP_ELEMENT = Buffer.from('\x03$clusterTime', 'latin1');

/**
 * A command's BSON without its top-level `$clusterTime` document, which every command of a
 * replica-set client carries and this server never reads (a one-member set's clock is its own
 * and, without authentication, there is no signature to check): decoding its Timestamp, Binary
 * and Long took longer than the rest of a small command. Walks the top-level elements only, in
 * plain loops (a command's names are short: native calls would cost more than they scan); when
 * the bytes are not a well-formed walk (a type it does not size, an overrun) they are returned as
 * they are, for the decoder to accept or refuse as before.
 */
export function withoutGossip(command: Buffer): Buffer {
  const end = command.length - 1;
  let at = 4;
  while (at < end) {
    let nameEnd = at + 1;
    while (nameEnd < end && command[nameEnd] !== 0) nameEnd++;
    if (nameEnd >= end) return command;
    const valueAt = nameEnd + 1;
    const size = valueSize(command, command[at], valueAt, end);
    if (size < 0 || valueAt + size > end) return command;
    const next = valueAt + size;
    if (nameEnd - at === GOSSIP_ELEMENT.length && startsWithGossip(command, at)) {
      const kept = Buffer.allocUnsafe(command.length - (next - at));
      kept.set(command.subarray(0, at), 0);
      kept.set(command.subarray(next), at);
      kept.writeInt32LE(kept.length, 0);
      return kept;
    }
    at = next;
  }
  return command;
}

function startsWithGossip(bytes: Buffer, at: number): boolean {
  for (let i = 0; i < GOSSIP_ELEMENT.length; i++) if (bytes[at + i] !== GOSSIP_ELEMENT[i]) return false;
  return true;
}

/** Bytes of an element's value of this BSON type starting at `at`; -1 for a type it does not size. */
function valueSize(bytes: Buffer, type: number, at: number, end: number): number {
  const lengthPrefixed = (): number => (at + 4 <= end ? bytes.readInt32LE(at) : -1);
  switch (type) {
    case 0x01: // double
    case 0x09: // date
    case 0x11: // timestamp
    case 0x12: // int64
      return 8;
    case 0x02: // string
    case 0x0d: // JavaScript code
    case 0x0e: {
      // symbol
      const length = lengthPrefixed();
      return length < 1 ? -1 : 4 + length;
    }
    case 0x03: // document
    case 0x04: // array
    case 0x0f: {
      // code with scope
      const length = lengthPrefixed();
      return length < 5 ? -1 : length;
    }
    case 0x05: {
      // binary: length, subtype, bytes
      const length = lengthPrefixed();
      return length < 0 ? -1 : 5 + length;
    }
    case 0x06: // undefined
    case 0x0a: // null
    case 0x7f: // max key
    case 0xff: // min key
      return 0;
    case 0x07: // ObjectId
      return 12;
    case 0x08: // boolean
      return 1;
    case 0x10: // int32
      return 4;
    case 0x13: // decimal128
      return 16;
    default:
      return -1; // regular expressions and DBPointers, which no command carries at its top level
  }
}
