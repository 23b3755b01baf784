import { BSON, type Document } from 'bson';
import type { StreamPosition } from './stream-position';

export type ChangeOperation = 'insert' | 'update' | 'replace' | 'delete' | 'drop' | 'rename' | 'dropDatabase';

export interface UpdateDescription {
  readonly updatedFields: Document;
  readonly removedFields: string[];
  readonly truncatedArrays: Array<{ field: string; newSize: number }>;
}

/**
 * One committed change, as the history keeps it (the oplog entry of mongod): what the change
 * events of every stream are rendered from. It is its own position (one object less per change
 * for the collector). Documents are the stored ones, shared, never copied (stored documents are
 * immutable).
 */
export interface ChangeRecord extends StreamPosition {
  readonly wallTime: Date;
  readonly operationType: ChangeOperation;
  readonly db: string;
  /** Absent for dropDatabase. */
  readonly coll?: string;
  readonly documentKey?: Document;
  /** insert, replace: the new document; update: its post-image when the collection keeps images. */
  readonly fullDocument?: Document;
  readonly updateDescription?: UpdateDescription;
  /** update, replace, delete: the document before, when the collection keeps images. */
  readonly preImage?: Document;
  /** The collection had `changeStreamPreAndPostImages: { enabled: true }` at the time. */
  readonly imagesEnabled?: boolean;
  /** rename: the new namespace. */
  readonly to?: { readonly db: string; readonly coll: string };
  /** Set on the changes of a committed multi-document transaction. */
  readonly lsid?: Document;
  readonly txnNumber?: unknown;
  /** BSON size of what the record holds: what the history's byte bound counts. */
  readonly bytes: number;
}

/** Field names and fixed values of a record (position, time, namespace, key) as BSON would hold them. */
const RECORD_OVERHEAD_BYTES = 128;

/** The BSON size of what a record holds (the `_id` of its document key is counted in the overhead). */
export function recordBytes(db: string, coll: string | undefined, parts: ReadonlyArray<Document | undefined>): number {
  let bytes = RECORD_OVERHEAD_BYTES + db.length + (coll?.length ?? 0);
  for (const part of parts) if (part) bytes += BSON.calculateObjectSize(part);
  return bytes;
}
