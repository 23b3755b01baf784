/** The parts of a call that say which request it is. */
export interface RequestToFingerprint {
  readonly method: string;
  readonly path: string;
  readonly id: unknown;
  readonly data: unknown;
  readonly query: unknown;
}

/**
 * What makes two calls "the same request" for a key, as one text to hash: method, path, id, data
 * and query in canonical JSON (keys sorted at every level), so a retry that orders its fields
 * differently is still the same request.
 */
export function canonicalRequest(call: RequestToFingerprint): string {
  return canonicalJson([call.method, call.path, call.id ?? null, call.data ?? null, call.query ?? null]);
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null && typeof (value as { toJSON?: unknown }).toJSON !== 'function') {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record)
      .sort()
      .filter((key) => record[key] !== undefined);
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
