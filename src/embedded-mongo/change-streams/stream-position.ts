import type { Timestamp } from 'bson';

/**
 * Where a change sits in the history: its cluster time, then its place among the changes of one
 * transaction (which share a time). `txnOpIndex` -1 means "before everything at that time" (a
 * start time) and MAX_OP_INDEX "after everything at that time" (a high-water mark).
 */
export interface StreamPosition {
  readonly clusterTime: Timestamp;
  readonly txnOpIndex: number;
}

export const MAX_OP_INDEX = 0xffffffff;

export function comparePositions(a: StreamPosition, b: StreamPosition): number {
  return a.clusterTime.t - b.clusterTime.t || a.clusterTime.i - b.clusterTime.i || a.txnOpIndex - b.txnOpIndex;
}
