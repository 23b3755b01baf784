import { BSON, type Document } from 'bson';
import { isBsonNumber, numberValue } from '../query/bson-numbers';

/** mongod's smallest capped size; larger sizes are raised to a multiple of 256 bytes. */
const MIN_CAPPED_BYTES = 4096;

/**
 * The bound of a capped collection (`size` bytes, optionally `max` documents), tracking the BSON
 * size of what it holds so an insert knows how many of the oldest documents must go.
 */
export class CappedBound {
  private readonly maxBytes: number;
  private readonly maxDocuments: number;
  private bytes = 0;

  constructor(options: Document) {
    const size = isBsonNumber(options.size) ? numberValue(options.size) : 0;
    this.maxBytes = size <= MIN_CAPPED_BYTES ? MIN_CAPPED_BYTES : Math.ceil(size / 256) * 256;
    const max = isBsonNumber(options.max) ? numberValue(options.max) : 0;
    this.maxDocuments = max > 0 ? max : Infinity;
  }

  static of(options: Document): CappedBound | undefined {
    return options.capped === true ? new CappedBound(options) : undefined;
  }

  added(doc: Document): void {
    this.bytes += BSON.calculateObjectSize(doc);
  }

  removed(doc: Document): void {
    this.bytes -= BSON.calculateObjectSize(doc);
  }

  exceeded(documentCount: number): boolean {
    return this.bytes > this.maxBytes || documentCount > this.maxDocuments;
  }
}
