import { Timestamp, type Document } from 'bson';
import { CommandError } from '../base/command-error';
import { decodeResumeToken, type ResumePoint } from './resume-token';

/** What a stream watches: one collection, one database, or every database (`allChangesForCluster`). */
export type StreamScope =
  | { readonly kind: 'collection'; readonly db: string; readonly coll: string }
  | { readonly kind: 'database'; readonly db: string }
  | { readonly kind: 'cluster' };

export type FullDocumentMode = 'default' | 'updateLookup' | 'whenAvailable' | 'required';
export type BeforeChangeMode = 'off' | 'whenAvailable' | 'required';

/** Where a stream starts; none of them: now. */
export type StreamStart =
  | { readonly kind: 'resumeAfter' | 'startAfter'; readonly point: ResumePoint }
  | { readonly kind: 'startAtOperationTime'; readonly time: Timestamp }
  | { readonly kind: 'now' };

export interface ChangeStreamSpec {
  readonly scope: StreamScope;
  readonly fullDocument: FullDocumentMode;
  readonly fullDocumentBeforeChange: BeforeChangeMode;
  readonly start: StreamStart;
  /** The stages after `$changeStream`, applied to each event. */
  readonly stages: Document[];
}

/** The stages mongod lets follow `$changeStream` (they reshape or filter single events). */
const FOLLOWING_STAGES = new Set([
  '$match',
  '$project',
  '$addFields',
  '$set',
  '$unset',
  '$replaceRoot',
  '$replaceWith',
  '$redact',
]);
const FULL_DOCUMENT_MODES = new Set<string>(['default', 'updateLookup', 'whenAvailable', 'required']);
const BEFORE_CHANGE_MODES = new Set<string>(['off', 'whenAvailable', 'required']);
const STAGE_FIELDS = new Set([
  'resumeAfter',
  'startAfter',
  'startAtOperationTime',
  'fullDocument',
  'fullDocumentBeforeChange',
  'allChangesForCluster',
  'showExpandedEvents',
]);

export function isChangeStreamPipeline(pipeline: unknown): boolean {
  return Array.isArray(pipeline) && pipeline.some((stage) => isStage(stage, '$changeStream'));
}

/**
 * Parses `[{ $changeStream: {...} }, ...following]` for a stream on `target` (a collection, or undefined for
 * `aggregate: 1`).
 */
export function parseChangeStream(pipeline: Document[], db: string, target: string | undefined): ChangeStreamSpec {
  pipeline.forEach((stage, index) => {
    if (index > 0 && isStage(stage, '$changeStream'))
      throw new CommandError('Location40602', '$changeStream is only valid as the first stage in a pipeline.');
  });
  if (!isStage(pipeline[0], '$changeStream'))
    throw new CommandError('Location40602', '$changeStream is only valid as the first stage in a pipeline.');
  const options = pipeline[0].$changeStream;
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new CommandError(
      'Location40573',
      `the $changeStream stage must be specified as an object, got ${typeof options}`,
    );
  }
  for (const field of Object.keys(options)) {
    if (!STAGE_FIELDS.has(field))
      throw new CommandError('Location40415', `BSON field '$changeStream.${field}' is an unknown field.`);
  }
  if (options.showExpandedEvents === true)
    throw new CommandError('CommandNotSupported', 'showExpandedEvents is not supported by this server');
  const stages = pipeline.slice(1);
  for (const stage of stages) {
    const name = Object.keys(stage)[0];
    if (!FOLLOWING_STAGES.has(name))
      throw new CommandError('IllegalOperation', `${name} is not permitted in a $changeStream pipeline`);
  }
  return {
    scope: scopeOf(db, target, options.allChangesForCluster === true),
    fullDocument: enumOption(options.fullDocument, 'fullDocument', FULL_DOCUMENT_MODES, 'default') as FullDocumentMode,
    fullDocumentBeforeChange: enumOption(
      options.fullDocumentBeforeChange,
      'fullDocumentBeforeChange',
      BEFORE_CHANGE_MODES,
      'off',
    ) as BeforeChangeMode,
    start: startOf(options as Document),
    stages,
  };
}

function scopeOf(db: string, target: string | undefined, allChangesForCluster: boolean): StreamScope {
  if (allChangesForCluster) {
    if (db !== 'admin' || target !== undefined) {
      throw new CommandError(
        'InvalidNamespace',
        "A $changeStream with 'allChangesForCluster:true' may only be opened on the 'admin' database, and with no " +
          'collection name',
      );
    }
    return { kind: 'cluster' };
  }
  if (db === 'admin' || db === 'config' || db === 'local') {
    throw new CommandError('InvalidNamespace', `$changeStream may not be opened on the internal ${db} database`);
  }
  if (target === undefined) return { kind: 'database', db };
  if (target.startsWith('system.'))
    throw new CommandError(
      'InvalidNamespace',
      `$changeStream may not be opened on the internal ${db}.${target} collection`,
    );
  return { kind: 'collection', db, coll: target };
}

function startOf(options: Document): StreamStart {
  const given = ['resumeAfter', 'startAfter', 'startAtOperationTime'].filter((field) => options[field] !== undefined);
  if (given.length > 1)
    throw new CommandError('Location40674', 'Only one type of resume option is allowed, but multiple were found.');
  if (options.resumeAfter !== undefined) {
    const point = decodeResumeToken(options.resumeAfter);
    if (point.kind === 'invalidate') {
      throw new CommandError(
        'InvalidResumeToken',
        "Attempting to resume a change stream using 'resumeAfter' is not allowed from an invalidate notification.",
      );
    }
    return { kind: 'resumeAfter', point };
  }
  if (options.startAfter !== undefined) return { kind: 'startAfter', point: decodeResumeToken(options.startAfter) };
  if (options.startAtOperationTime !== undefined) {
    if (!(options.startAtOperationTime instanceof Timestamp)) {
      throw new CommandError(
        'TypeMismatch',
        "BSON field '$changeStream.startAtOperationTime' is the wrong type, expected type 'timestamp'",
      );
    }
    return { kind: 'startAtOperationTime', time: options.startAtOperationTime };
  }
  return { kind: 'now' };
}

function enumOption(value: unknown, field: string, allowed: Set<string>, fallback: string): string {
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || !allowed.has(value)) {
    throw new CommandError(
      'BadValue',
      `Enumeration value '${String(value)}' for field '$changeStream.${field}' is not a valid value.`,
    );
  }
  return value;
}

function isStage(stage: unknown, name: string): stage is Document {
  return stage !== null && typeof stage === 'object' && !Array.isArray(stage) && Object.hasOwn(stage, name);
}
