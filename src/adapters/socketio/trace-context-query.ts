import type { TraceCarrier } from '../../ports/tracer.port';

/** A socket frame has no headers: a client sends its trace context in the call's query, under these names. */
const TRACE_QUERY_FIELDS = [
  ['$traceparent', 'traceparent'],
  ['$tracestate', 'tracestate'],
] as const;

/**
 * The query without `$traceparent` and `$tracestate` (they are never store operators, whether
 * tracing is on or not), and the trace context they carried, if any.
 */
export function takeTraceContext(query: Record<string, unknown>): {
  query: Record<string, unknown>;
  carrier?: TraceCarrier;
} {
  if (!Object.hasOwn(query, '$traceparent') && !Object.hasOwn(query, '$tracestate')) return { query };
  const rest = { ...query };
  const carrier: Record<string, string> = {};
  for (const [field, header] of TRACE_QUERY_FIELDS) {
    const value = rest[field];
    delete rest[field];
    if (typeof value === 'string' && value.length <= 512) carrier[header] = value;
  }
  return { query: rest, carrier };
}
