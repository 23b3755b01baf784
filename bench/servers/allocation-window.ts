import { getHeapStatistics } from 'node:v8';
import { PerformanceObserver, performance } from 'node:perf_hooks';
import { collectGarbage } from './server-protocol';

/** The harness opens a window, makes its calls, then closes it and gets what the child allocated. */
export interface AllocationRequest {
  type: 'allocation';
  phase: 'open' | 'close';
}

export interface AllocationMessage {
  type: 'allocation';
  phase: 'open' | 'close';
  /** Growth of the V8 heap over the window (set on close). */
  heapBytes?: number;
  /** Growth of ArrayBuffer / Buffer memory over the window (socket reads, BSON buffers). */
  arrayBufferBytes?: number;
  /** Garbage collections that ran inside the window: the readings are only sound when 0. */
  collections?: number;
}

/**
 * Bytes allocated between `open` and `close`: the window starts right after a full collection
 * and is only trusted when no collection ran inside it, so every byte the heap grew by was
 * allocated in the window (garbage included) and nothing was freed. The harness keeps windows
 * short enough to fit in the young generation and retries those a collection cut through.
 */
export function serveAllocationWindows(): void {
  const collectionStarts: number[] = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) collectionStarts.push(entry.startTime);
  }).observe({ entryTypes: ['gc'] });
  let opened = { at: 0, heap: 0, arrayBuffers: 0 };
  process.on('message', (message: AllocationRequest) => {
    if (message?.type !== 'allocation') return;
    if (message.phase === 'open') {
      collectGarbage();
      collectionStarts.length = 0;
      opened = {
        at: performance.now(),
        heap: getHeapStatistics().used_heap_size,
        arrayBuffers: process.memoryUsage().arrayBuffers,
      };
      process.send?.({ type: 'allocation', phase: 'open' } satisfies AllocationMessage);
      return;
    }
    const closedAt = performance.now();
    const heapBytes = getHeapStatistics().used_heap_size - opened.heap;
    const arrayBufferBytes = process.memoryUsage().arrayBuffers - opened.arrayBuffers;
    // gc entries are delivered asynchronously: give the observer a moment before counting.
    setTimeout(() => {
      const collections = collectionStarts.filter((start) => start >= opened.at && start <= closedAt).length;
      process.send?.({
        type: 'allocation',
        phase: 'close',
        heapBytes,
        arrayBufferBytes,
        collections,
      } satisfies AllocationMessage);
    }, 50);
  });
}
