import { Long, type Document } from 'bson';
import { CommandError } from '../base/command-error';
import type { ChangeRecord } from './change-record';
import type { ChangeStreamSpec, StreamScope } from './change-stream-spec';
import { encodeResumeToken } from './resume-token';

/** The current version of a document, for `fullDocument: 'updateLookup'`. */
export type DocumentLookup = (db: string, coll: string, id: unknown) => Document | undefined;

/** Databases whose changes no stream shows, as in mongod. */
const INTERNAL_DATABASES = new Set(['admin', 'config', 'local']);

/** Whether a stream of this scope sees the change at all. */
export function isVisible(record: ChangeRecord, scope: StreamScope): boolean {
  if (record.coll?.startsWith('system.')) return false;
  switch (scope.kind) {
    case 'cluster':
      return !INTERNAL_DATABASES.has(record.db);
    case 'database':
      return record.db === scope.db;
    case 'collection':
      return record.db === scope.db && record.coll === scope.coll && record.operationType !== 'dropDatabase';
  }
}

/** Whether the change ends the stream (it then reports an `invalidate` and closes). */
export function invalidates(record: ChangeRecord, scope: StreamScope): boolean {
  if (scope.kind === 'collection') return record.operationType === 'drop' || record.operationType === 'rename';
  return scope.kind === 'database' && record.operationType === 'dropDatabase';
}

/** The change event a stream with these options reports for a record, in mongod's field order. */
export function renderEvent(record: ChangeRecord, spec: ChangeStreamSpec, lookup: DocumentLookup): Document {
  const event: Document = {
    _id: encodeResumeToken(record, 'event'),
    operationType: record.operationType,
    clusterTime: record.clusterTime,
    wallTime: record.wallTime,
  };
  if (record.lsid !== undefined) {
    event.txnNumber = Long.fromValue(record.txnNumber as number);
    event.lsid = record.lsid;
  }
  const fullDocument = fullDocumentOf(record, spec, lookup);
  if (fullDocument !== undefined) event.fullDocument = fullDocument;
  event.ns = record.coll === undefined ? { db: record.db } : { db: record.db, coll: record.coll };
  if (record.to) event.to = record.to;
  if (record.documentKey) event.documentKey = record.documentKey;
  if (record.updateDescription) event.updateDescription = record.updateDescription;
  const before = beforeChangeOf(record, spec);
  if (before !== undefined) event.fullDocumentBeforeChange = before;
  return event;
}

export function renderInvalidate(record: ChangeRecord): Document {
  return {
    _id: encodeResumeToken(record, 'invalidate'),
    operationType: 'invalidate',
    clusterTime: record.clusterTime,
    wallTime: record.wallTime,
  };
}

function fullDocumentOf(
  record: ChangeRecord,
  spec: ChangeStreamSpec,
  lookup: DocumentLookup,
): Document | null | undefined {
  if (record.operationType === 'insert' || record.operationType === 'replace') return record.fullDocument;
  if (record.operationType !== 'update') return undefined;
  switch (spec.fullDocument) {
    case 'default':
      return undefined;
    case 'updateLookup':
      return lookup(record.db, record.coll!, record.documentKey?._id) ?? null;
    case 'whenAvailable':
      return record.fullDocument ?? null;
    case 'required':
      if (!record.fullDocument) throw missingImage('post-image', 'update', record);
      return record.fullDocument;
  }
}

function beforeChangeOf(record: ChangeRecord, spec: ChangeStreamSpec): Document | null | undefined {
  if (spec.fullDocumentBeforeChange === 'off') return undefined;
  if (record.operationType !== 'update' && record.operationType !== 'replace' && record.operationType !== 'delete')
    return undefined;
  if (record.preImage) return record.preImage;
  if (spec.fullDocumentBeforeChange === 'required')
    throw missingImage('pre-image', 'update, delete and replace', record);
  return null;
}

function missingImage(image: string, events: string, record: ChangeRecord): CommandError {
  return new CommandError(
    'NoMatchingDocument',
    `Change stream was configured to require a ${image} for all ${events} events, but the ${image} was not found for ` +
      `event: ${record.operationType} on ${record.db}.${record.coll ?? ''}`,
  );
}
