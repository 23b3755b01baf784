import type { Document } from 'bson';
import type { IndexSpec } from './index-spec';
import { decodeStoredSequence, encodeStored } from './stored-bson';
import type { WriteEvent } from './storage-engine';

/** A change as journaled: the event minus what replay does not need (the previous document). */
export function encodeEvent(event: WriteEvent): Uint8Array {
  const { db, collection } = event;
  switch (event.type) {
    case 'insert':
    case 'replace':
      return encodeStored({ op: event.type, db, collection, doc: event.doc });
    case 'delete':
      return encodeStored({ op: 'delete', db, collection, id: event.id });
    case 'createCollection':
      return encodeStored({ op: 'createCollection', db, collection, options: event.options });
    case 'dropCollection':
      return encodeStored({ op: 'dropCollection', db, collection });
    case 'createIndex':
      return encodeStored({ op: 'createIndex', db, collection, spec: event.spec });
    case 'dropIndex':
      return encodeStored({ op: 'dropIndex', db, collection, name: event.name });
    case 'modifyCollection':
      return encodeStored({ op: 'modifyCollection', db, collection, options: event.options });
    case 'modifyIndex':
      return encodeStored({ op: 'modifyIndex', db, collection, spec: event.spec });
  }
}

/** A change-stream history document, journaled with the writes of its command. */
export function encodeHistoryEntry(entry: Document): Uint8Array {
  return encodeStored({ op: 'history', entry });
}

export interface DecodedRecord {
  /** The catalog's changes, in the order they happened. */
  readonly events: WriteEvent[];
  /** The change-stream history documents journaled with them. */
  readonly history: Document[];
}

export function decodeRecord(payload: Buffer): DecodedRecord {
  const events: WriteEvent[] = [];
  const history: Document[] = [];
  for (const raw of decodeStoredSequence(payload)) {
    if (raw.op === 'history') history.push(raw.entry as Document);
    else events.push(toEvent(raw));
  }
  return { events, history };
}

function toEvent(raw: Document): WriteEvent {
  const db = raw.db as string;
  const collection = raw.collection as string;
  switch (raw.op) {
    case 'insert':
    case 'replace':
      return { type: raw.op, db, collection, doc: raw.doc as Document };
    case 'delete':
      // A BSON document cannot hold a top-level undefined; an `_id` never is one.
      return { type: 'delete', db, collection, id: raw.id };
    case 'createCollection':
      return { type: 'createCollection', db, collection, options: (raw.options as Document) ?? {} };
    case 'dropCollection':
      return { type: 'dropCollection', db, collection };
    case 'createIndex':
      return { type: 'createIndex', db, collection, spec: raw.spec as IndexSpec };
    case 'dropIndex':
      return { type: 'dropIndex', db, collection, name: raw.name as string };
    case 'modifyCollection':
      return { type: 'modifyCollection', db, collection, options: (raw.options as Document) ?? {} };
    case 'modifyIndex':
      return { type: 'modifyIndex', db, collection, spec: raw.spec as IndexSpec };
    default:
      throw new Error(`unknown journal operation '${String(raw.op)}'`);
  }
}
