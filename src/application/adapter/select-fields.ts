/**
 * Keeps only the `$select` fields of a record, plus the id field (always kept). Dotted paths
 * select nested values. Without `$select` the record is returned as it is.
 */
export function selectFields<T>(record: T, select: readonly string[] | undefined, idField: string): T {
  if (!select || typeof record !== 'object' || record === null) return record;
  const source = record as Record<string, unknown>;
  const picked: Record<string, unknown> = {};
  for (const field of new Set([idField, ...select])) {
    if (!field.includes('.')) {
      if (Object.hasOwn(source, field)) picked[field] = source[field];
      continue;
    }
    const parts = field.split('.');
    let from: unknown = source;
    for (const part of parts)
      from = typeof from === 'object' && from !== null ? (from as Record<string, unknown>)[part] : undefined;
    if (from === undefined) continue;
    let into = picked;
    for (const part of parts.slice(0, -1)) into = (into[part] ??= {}) as Record<string, unknown>;
    into[parts[parts.length - 1]] = from;
  }
  return picked as T;
}
