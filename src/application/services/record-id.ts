/** A record's id, whatever the store's id field (`id` or `_id`). */
export function recordIdOf(record: Record<string, any> | undefined): unknown {
  return record?.id ?? record?._id;
}
