import { Timestamp, type Document } from 'bson';
import { CommandError } from '../base/command-error';
import type { StreamPosition } from './stream-position';

/**
 * What a token points at: an event, the invalidate that followed an event (same position), or a
 * high-water mark (a position that carries no event, handed out when a batch ends without one).
 */
export type TokenKind = 'event' | 'invalidate' | 'highWaterMark';

export interface ResumePoint {
  readonly position: StreamPosition;
  readonly kind: TokenKind;
}

const KIND_CODES: Record<TokenKind, string> = { event: '00', invalidate: '01', highWaterMark: '02' };
const TOKEN_PATTERN = /^82([0-9a-f]{8})([0-9a-f]{8})([0-9a-f]{8})(0[0-2])$/;

/**
 * `{ _data: <hex string> }` as mongod sends it (opaque to clients, ordered as the history): time
 * seconds, increment and transaction index in fixed-width hex, so tokens sort as their positions.
 */
export function encodeResumeToken(position: StreamPosition, kind: TokenKind): Document {
  const hex = (value: number): string => value.toString(16).padStart(8, '0');
  return {
    _data:
      `82${hex(position.clusterTime.t)}${hex(position.clusterTime.i)}${hex(position.txnOpIndex)}` +
      `${KIND_CODES[kind]}`,
  };
}

export function decodeResumeToken(token: unknown): ResumePoint {
  const data = token !== null && typeof token === 'object' ? (token as Document)._data : undefined;
  const match = typeof data === 'string' ? TOKEN_PATTERN.exec(data) : null;
  if (!match)
    throw new CommandError(
      'InvalidResumeToken',
      'Failed to decode resume token: the token is not one this server issued',
    );
  const clusterTime = new Timestamp({ t: parseInt(match[1], 16), i: parseInt(match[2], 16) });
  const kind = (Object.keys(KIND_CODES) as TokenKind[]).find((name) => KIND_CODES[name] === match[4])!;
  return { position: { clusterTime, txnOpIndex: parseInt(match[3], 16) }, kind };
}
