import type { Collection, Document } from 'mongodb';
import { copyWith } from '../../domain/plain-record';
import type { SortDirection } from '../../domain/query';
import { stableSort, type Projection } from './query-to-pipeline';

/**
 * Reads records by `_id` (the re-read after create, and after a multi patch). The result keeps
 * the order of `ids` unless a sort is given; `_id` is fetched for that even when the
 * projection leaves it out, and removed again afterwards.
 */
export async function readByIds(
  model: Collection<Document>,
  ids: readonly unknown[],
  projection: Projection | undefined,
  options: Document,
  sort?: Record<string, SortDirection>,
): Promise<Document[]> {
  if (ids.length === 0) return [];
  const hidesId = projection?._id === 0;
  const readProjection = hidesId ? copyWith(projection, { _id: 1 as const }) : projection;
  const ordered = stableSort(sort);
  const cursor = model.find(
    { _id: { $in: [...ids] } } as Document,
    copyWith(readProjection ? { projection: readProjection } : {}, options),
  );
  if (ordered) cursor.sort(ordered);
  const records = await cursor.toArray();
  const result = ordered ? records : orderByIds(records, ids);
  return hidesId ? result.map(withoutUnderscoreId) : result;
}

export function withoutUnderscoreId(record: Document): Document {
  const { _id: _hidden, ...rest } = record;
  return rest;
}

function orderByIds(records: Document[], ids: readonly unknown[]): Document[] {
  const position = new Map(ids.map((id, index) => [keyOf(id), index]));
  return [...records].sort((a, b) => (position.get(keyOf(a._id)) ?? 0) - (position.get(keyOf(b._id)) ?? 0));
}

function keyOf(id: unknown): string {
  if (typeof id === 'object' && id !== null && typeof (id as { toHexString?: unknown }).toHexString === 'function') {
    return `oid:${(id as { toHexString(): string }).toHexString()}`;
  }
  return `${typeof id}:${String(id)}`;
}
