import type { Document } from 'bson';

/**
 * Results produced on demand, so that a cursor holds its position in a walk instead of the whole
 * result: `take(count)` returns the next documents, fewer than `count` only once the walk is over.
 */
export interface ResultStream {
  take(count: number): Document[];
  /** True when nothing is left; may read one document of the walk ahead (untransformed) to know. */
  exhausted(): boolean;
}

/** A stream over results that are already in memory (views, `$group` output, sessions). */
export function streamOf(docs: readonly Document[]): ResultStream {
  let position = 0;
  return {
    take(count) {
      const end = Math.min(docs.length, position + count);
      const taken = docs.slice(position, end);
      position = end;
      return taken;
    },
    exhausted: () => position >= docs.length,
  };
}

/**
 * A stream over a lazy walk; `transform` (a projection, say) runs on each piece taken, so its
 * set-up cost is paid per batch rather than per document.
 */
export function streamFrom(walk: Iterator<Document>, transform?: (docs: Document[]) => Document[]): ResultStream {
  let done = false;
  let ahead: Document | undefined;
  const readAhead = (): boolean => {
    if (ahead !== undefined) return true;
    if (done) return false;
    const step = walk.next();
    if (step.done) done = true;
    else ahead = step.value;
    return !done;
  };
  return {
    take(count) {
      const taken: Document[] = [];
      while (taken.length < count && readAhead()) {
        taken.push(ahead!);
        ahead = undefined;
      }
      return transform && taken.length > 0 ? transform(taken) : taken;
    },
    exhausted: () => !readAhead(),
  };
}

/** The stream's documents one at a time, taken a piece at a time. */
export function* documentsOf(stream: ResultStream, piece = 256): Generator<Document> {
  for (let docs = stream.take(piece); docs.length > 0; docs = docs.length < piece ? [] : stream.take(piece))
    yield* docs;
}

/** Everything left in a stream (for commands that need the whole result, such as `$out`). */
export function drain(stream: ResultStream): Document[] {
  return stream.take(Infinity);
}
