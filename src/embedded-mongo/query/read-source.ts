import type { Document } from 'bson';
import type { SecondaryIndexes } from '../indexes/secondary-indexes';

/** What reads need from a namespace: a collection, or a view's computed documents (see `readSource`). */
export interface ReadSource {
  readonly size: number;
  documents(): Iterable<Document>;
  getById?(id: unknown): Document | undefined;
  /** A collection's indexes (views have none). */
  readonly secondary?: SecondaryIndexes;
}
