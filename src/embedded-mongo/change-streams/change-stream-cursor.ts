import { BSON, Timestamp, type Document } from 'bson';
import { CommandError } from '../base/command-error';
import { MAX_BATCH_BYTES } from '../query/take-batch';
import type { ChangeHistory } from './change-history';
import type { ChangeRecord } from './change-record';
import { invalidates, isVisible, renderEvent, renderInvalidate, type DocumentLookup } from './change-event';
import type { ChangeStreamSpec } from './change-stream-spec';
import type { ClusterClock } from './cluster-clock';
import { compileFollowingStages } from './following-stages';
import { encodeResumeToken } from './resume-token';
import { comparePositions, MAX_OP_INDEX, type StreamPosition } from './stream-position';

const MESSAGE_EVENT_ID_MODIFIED =
  'Encountered an event whose _id field, which contains the resume token, was modified by the pipeline. Modifying ' +
  'the _id field of an event makes it ' +
  'impossible to resume the stream from that point. Only transformations that retain the unmodified _id field are ' +
  'allowed.';

/**
 * One open change stream: its place in the history, read forward a batch at a time. A batch
 * ends when full or when the history has nothing newer; the stream then stands at the history's
 * high-water mark, which its `postBatchResumeToken` names. An invalidating change (drop or
 * rename of the watched collection, dropDatabase of the watched database) ends it.
 */
export class ChangeStreamCursor {
  private position: StreamPosition;
  private resumeToken: Document;
  private ended = false;
  /** Resumed right after an invalidating change: the stream owes its invalidate first. */
  private owedInvalidate?: ChangeRecord;
  private readonly applyStages: (events: Document[]) => Document[];

  constructor(
    private readonly history: ChangeHistory,
    private readonly clock: ClusterClock,
    private readonly spec: ChangeStreamSpec,
    private readonly lookup: DocumentLookup,
  ) {
    this.applyStages = compileFollowingStages(spec.stages);
    this.position = this.startPosition();
    this.history.readAfter(this.position, 0); // fails now when the start is no longer in the history
    const start = spec.start;
    this.resumeToken =
      start.kind === 'resumeAfter' || start.kind === 'startAfter'
        ? encodeResumeToken(start.point.position, start.point.kind)
        : encodeResumeToken(this.position, 'highWaterMark');
  }

  get exhausted(): boolean {
    return this.ended;
  }

  /** Waits for data: an empty batch is "nothing yet", not the end. */
  get awaitData(): boolean {
    return true;
  }

  get postBatchResumeToken(): Document {
    return this.resumeToken;
  }

  take(maxCount: number): Document[] {
    const batch: Document[] = [];
    if (this.owedInvalidate) {
      this.finish(this.owedInvalidate, batch);
      this.owedInvalidate = undefined;
      return batch;
    }
    let bytes = 0;
    while (!this.ended && batch.length < maxCount && bytes < MAX_BATCH_BYTES) {
      const records = this.history.readAfter(this.position, maxCount - batch.length);
      if (records.length === 0) {
        this.resumeToken = this.highWaterMark();
        return batch;
      }
      const rendered: Document[] = [];
      for (const record of records) {
        this.position = record;
        if (!isVisible(record, this.spec.scope)) continue;
        rendered.push(renderEvent(record, this.spec, this.lookup));
        if (invalidates(record, this.spec.scope)) {
          this.pushAll(rendered, batch);
          this.finish(record, batch);
          return batch;
        }
      }
      bytes += this.pushAll(rendered, batch);
      this.resumeToken = encodeResumeToken(this.position, 'event');
    }
    return batch;
  }

  private pushAll(rendered: Document[], batch: Document[]): number {
    if (rendered.length === 0) return 0;
    const tokens = new Set(rendered.map((event) => (event._id as Document)._data as string));
    let bytes = 0;
    for (const event of this.applyStages(rendered)) {
      const id = event._id as Document | undefined;
      if (!id || typeof id !== 'object' || Object.keys(id).length !== 1 || !tokens.has(id._data as string)) {
        this.ended = true;
        throw new CommandError('ChangeStreamFatalError', MESSAGE_EVENT_ID_MODIFIED);
      }
      bytes += BSON.calculateObjectSize(event);
      batch.push(event);
    }
    return bytes;
  }

  private finish(record: ChangeRecord, batch: Document[]): void {
    const invalidate = renderInvalidate(record);
    batch.push(...this.applyStages([invalidate]));
    this.resumeToken = invalidate._id as Document;
    this.ended = true;
  }

  private startPosition(): StreamPosition {
    const start = this.spec.start;
    switch (start.kind) {
      case 'now':
        return this.highWaterMarkPosition();
      case 'startAtOperationTime':
        return justBefore(start.time);
      case 'startAfter':
      case 'resumeAfter': {
        const { position, kind } = start.point;
        if (kind === 'highWaterMark') return position;
        const record = this.history.at(position);
        if (!record && comparePositions(position, this.history.horizon) > 0) {
          throw new CommandError('ChangeStreamFatalError', 'cannot resume stream; the resume token was not found.');
        }
        if (record && kind === 'event' && isVisible(record, this.spec.scope) && invalidates(record, this.spec.scope))
          this.owedInvalidate = record;
        return position;
      }
    }
  }

  /** After everything committed so far (every change at the current time is in the history already). */
  private highWaterMarkPosition(): StreamPosition {
    return { clusterTime: this.clock.current(), txnOpIndex: MAX_OP_INDEX };
  }

  /** Moves the stream to the high-water mark (never back: a start time may lie ahead of it). */
  private highWaterMark(): Document {
    const mark = this.highWaterMarkPosition();
    if (comparePositions(mark, this.position) > 0) this.position = mark;
    return encodeResumeToken(this.position, 'highWaterMark');
  }
}

/** The position right before every change at `time` (changes carry increments of 1 and up). */
function justBefore(time: Timestamp): StreamPosition {
  const clusterTime =
    time.i > 0
      ? new Timestamp({ t: time.t, i: time.i - 1 })
      : new Timestamp({ t: Math.max(time.t - 1, 0), i: MAX_OP_INDEX });
  return { clusterTime, txnOpIndex: MAX_OP_INDEX };
}
