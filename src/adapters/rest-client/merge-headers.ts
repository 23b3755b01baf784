/** Header values as callers may give them; `null` removes a header set by an earlier source. */
export type HeaderInput = Record<string, string | string[] | number | null | undefined> | undefined | null;

/**
 * Merges header maps left to right, case-insensitively (the last spelling wins), so that
 * `content-type` in `params.headers` replaces the client's `Content-Type` instead of doubling it.
 */
export function mergeHeaders(...sources: unknown[]): Record<string, string> {
  const merged = new Map<string, [string, string]>();
  for (const source of sources) {
    if (!source || typeof source !== 'object') continue;
    for (const [name, value] of Object.entries(source as Record<string, unknown>)) {
      if (value === undefined) continue;
      const key = name.toLowerCase();
      if (value === null) merged.delete(key);
      else merged.set(key, [name, Array.isArray(value) ? value.join(', ') : String(value)]);
    }
  }
  return Object.fromEntries([...merged.values()]);
}

/** A plain, lower-cased header record from a fetch `Headers`, an `AxiosHeaders` or a plain object. */
export function toHeaderRecord(headers: unknown): Record<string, string> {
  const record: Record<string, string> = {};
  if (!headers || typeof headers !== 'object') return record;
  const source = headers as { forEach?: unknown; toJSON?: unknown };
  if (typeof Headers !== 'undefined' && headers instanceof Headers) {
    headers.forEach((value, name) => {
      record[name.toLowerCase()] = value;
    });
    return record;
  }
  const plain = typeof source.toJSON === 'function' ? (source.toJSON as () => unknown)() : headers;
  for (const [name, value] of Object.entries(plain as Record<string, unknown>)) {
    if (value !== undefined && value !== null)
      record[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return record;
}
