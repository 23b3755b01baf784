import type { Document } from 'bson';
import { encodeReply, readCString, readDocumentAt } from './bson-codec';
import { frameMessage } from './message-reader';
import { ProtocolError } from './protocol-error';
import { OP_REPLY } from './wire-constants';

export interface ParsedOpQuery {
  readonly database: string;
  readonly command: Document;
}

/**
 * Parses a legacy OP_QUERY. Drivers only use it for the first handshake on each connection
 * (`admin.$cmd` with `ismaster`), so anything that is not a command namespace is rejected.
 */
export function parseOpQuery(body: Buffer): ParsedOpQuery {
  const name = readCString(body, 4, body.length);
  const [database, collection] = splitNamespace(name.value);
  if (collection !== '$cmd') throw new ProtocolError(`OP_QUERY on '${name.value}' is not supported; use OP_MSG`);
  const query = readDocumentAt(body, name.next + 8, body.length).doc;
  // Old drivers wrap the command as { $query: {...}, $readPreference }.
  const command = query.$query && typeof query.$query === 'object' ? (query.$query as Document) : query;
  return { database, command };
}

function splitNamespace(namespace: string): [string, string] {
  const dot = namespace.indexOf('.');
  if (dot <= 0) throw new ProtocolError(`invalid namespace '${namespace}'`);
  return [namespace.slice(0, dot), namespace.slice(dot + 1)];
}

/**
 * OP_REPLY: responseFlags 0, cursorId 0, startingFrom 0, numberReturned 1, then the document; `trailer`: see
 * encodeReply.
 */
export function encodeOpReply(requestId: number, responseTo: number, reply: Document, trailer?: Buffer): Buffer {
  const prefix = Buffer.alloc(20);
  prefix.writeInt32LE(1, 16);
  return frameMessage(OP_REPLY, requestId, responseTo, [prefix, ...encodeReply(reply, trailer)]);
}
