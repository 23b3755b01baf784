import { crc32 } from 'node:zlib';

/** Each record: payload length (u32 LE), CRC32 of the payload (u32 LE), then the payload. */
export const RECORD_HEADER_BYTES = 8;

/** Frames one payload as a self-checking record. */
export function frameRecord(parts: readonly Uint8Array[]): Buffer {
  const payloadLength = parts.reduce((sum, part) => sum + part.byteLength, 0);
  const record = Buffer.allocUnsafe(RECORD_HEADER_BYTES + payloadLength);
  let offset = RECORD_HEADER_BYTES;
  for (const part of parts) {
    record.set(part, offset);
    offset += part.byteLength;
  }
  const payload = record.subarray(RECORD_HEADER_BYTES);
  record.writeUInt32LE(payloadLength, 0);
  record.writeUInt32LE(crc32(payload), 4);
  return record;
}

export interface ScannedRecords {
  readonly payloads: Buffer[];
  /** Bytes of whole, valid records; anything after is a torn or corrupt tail. */
  readonly validLength: number;
  /** Why the scan stopped early, when it did. */
  readonly damage?: string;
}

/** Reads records until the end or the first one that is short or fails its checksum. */
export function scanRecords(bytes: Buffer): ScannedRecords {
  const payloads: Buffer[] = [];
  let offset = 0;
  while (offset < bytes.length) {
    if (offset + RECORD_HEADER_BYTES > bytes.length)
      return { payloads, validLength: offset, damage: `truncated record header at byte ${offset}` };
    const length = bytes.readUInt32LE(offset);
    const end = offset + RECORD_HEADER_BYTES + length;
    if (end > bytes.length)
      return { payloads, validLength: offset, damage: `record at byte ${offset} runs past the end of the file` };
    const payload = bytes.subarray(offset + RECORD_HEADER_BYTES, end);
    if (crc32(payload) !== bytes.readUInt32LE(offset + 4))
      return { payloads, validLength: offset, damage: `checksum mismatch in record at byte ${offset}` };
    payloads.push(payload);
    offset = end;
  }
  return { payloads, validLength: offset };
}
