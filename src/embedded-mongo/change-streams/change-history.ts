import { CommandError } from '../base/command-error';
import type { ChangeRecord } from './change-record';
import { comparePositions, type StreamPosition } from './stream-position';

/** How much history is kept: the oplog size of this server. Either bound alone may be set. */
export interface HistoryLimits {
  /** Total `bytes` of the retained records (default 32 MiB). */
  readonly maxBytes?: number;
  /** Number of retained records (default 100,000). */
  readonly maxEvents?: number;
}

export const DEFAULT_HISTORY_BYTES = 32 * 1024 * 1024;
export const DEFAULT_HISTORY_EVENTS = 100_000;

/** Evicted slots are cut off the array in one splice once they are this many (amortised: no copy per eviction). */
const COMPACT_AFTER = 1024;

/**
 * The window of recent changes that change streams read, oldest first, bounded like a capped
 * oplog: appending past a bound evicts the oldest records. The horizon is the last position no
 * longer covered; a reader whose place is before it lost history (ChangeStreamHistoryLost, as
 * mongod when the oplog has rolled past a resume point).
 */
export class ChangeHistory {
  private readonly records: ChangeRecord[] = [];
  private head = 0;
  private totalBytes = 0;
  private readonly maxBytes: number;
  private readonly maxEvents: number;
  private readonly waiters = new Set<() => void>();

  constructor(
    limits: HistoryLimits,
    private horizonPosition: StreamPosition,
  ) {
    this.maxBytes = limits.maxBytes ?? (limits.maxEvents !== undefined ? Infinity : DEFAULT_HISTORY_BYTES);
    this.maxEvents = limits.maxEvents ?? (limits.maxBytes !== undefined ? Infinity : DEFAULT_HISTORY_EVENTS);
  }

  get horizon(): StreamPosition {
    return this.horizonPosition;
  }

  get count(): number {
    return this.records.length - this.head;
  }

  get bytes(): number {
    return this.totalBytes;
  }

  /** The retained records, oldest first. */
  retained(): ChangeRecord[] {
    return this.records.slice(this.head);
  }

  /** Adds the changes of one commit (in position order, after every retained one) and wakes waiting readers. */
  append(records: readonly ChangeRecord[]): void {
    for (const record of records) {
      this.records.push(record);
      this.totalBytes += record.bytes;
    }
    this.evictOverLimits();
    if (this.waiters.size > 0) this.wakeAll();
  }

  /**
   * Up to `max` records after `position`. Throws ChangeStreamHistoryLost when records after it
   * have already been evicted.
   */
  readAfter(position: StreamPosition, max: number): ChangeRecord[] {
    if (comparePositions(position, this.horizonPosition) < 0) {
      throw new CommandError(
        'ChangeStreamHistoryLost',
        'Resume of change stream was not possible, as the resume point may no longer be in the oplog.',
      );
    }
    const start = this.firstAfter(position);
    return this.records.slice(start, Math.min(this.records.length, start + max));
  }

  /** The record at exactly this position, if retained. */
  at(position: StreamPosition): ChangeRecord | undefined {
    const index = this.firstAfter(position) - 1;
    const record = index >= this.head ? this.records[index] : undefined;
    return record && comparePositions(record, position) === 0 ? record : undefined;
  }

  /** Resolves on the next append or after `timeoutMs`, whichever comes first. */
  waitForChange(timeoutMs: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        this.waiters.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, timeoutMs);
      this.waiters.add(wake);
    });
  }

  /** Wakes every waiting reader (a change came, or the server is stopping). */
  wakeAll(): void {
    for (const wake of [...this.waiters]) wake();
  }

  /** Index of the first record after `position` (binary search: positions only grow). */
  private firstAfter(position: StreamPosition): number {
    let low = this.head;
    let high = this.records.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (comparePositions(this.records[middle], position) <= 0) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /** The newest record always stays, even when it alone exceeds the byte bound. */
  private evictOverLimits(): void {
    while (this.count > 1 && (this.count > this.maxEvents || this.totalBytes > this.maxBytes)) {
      const oldest = this.records[this.head++];
      this.totalBytes -= oldest.bytes;
      this.horizonPosition = oldest;
    }
    if (this.head >= COMPACT_AFTER) {
      this.records.splice(0, this.head);
      this.head = 0;
    }
  }
}
