import { copyWith } from '../../domain/plain-record';
import type { EventEnvelope } from '../../ports/event-bus.port';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The trace context fields an envelope may carry, each a short header value. */
const TRACE_FIELDS = ['traceparent', 'tracestate'];

function traceOf(value: unknown): Record<string, string> | undefined {
  if (!isRecord(value)) return undefined;
  const trace: Record<string, string> = {};
  for (const field of TRACE_FIELDS) {
    const text = value[field];
    if (typeof text === 'string' && text.length <= 512) trace[field] = text;
  }
  return trace.traceparent === undefined ? undefined : trace;
}

/** An envelope from the bus, checked field by field; anything else is undefined. */
export function parseEnvelope(text: string): EventEnvelope | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isRecord(value) || typeof value.event !== 'string' || typeof value.path !== 'string' || !isRecord(value.routing))
    return undefined;
  const { origin, service, method, route, atOnce, sequence } = value.routing;
  if (typeof origin !== 'string' || typeof service !== 'string') return undefined;
  if (method !== undefined && typeof method !== 'string') return undefined;
  if (atOnce !== undefined && !Number.isSafeInteger(atOnce)) return undefined;
  if (sequence !== undefined && !Number.isSafeInteger(sequence)) return undefined;
  if (route !== undefined && !(isRecord(route) && Object.values(route).every((part) => typeof part === 'string')))
    return undefined;
  const trace = traceOf(value.trace);
  return copyWith(trace ? { trace } : {}, {
    event: value.event,
    path: value.path,
    data: value.data,
    routing: {
      origin,
      service,
      ...(method !== undefined ? { method } : {}),
      ...(route !== undefined ? { route: route as Record<string, string> } : {}),
      ...(atOnce !== undefined ? { atOnce: atOnce as number } : {}),
      ...(sequence !== undefined ? { sequence: sequence as number } : {}),
    },
  });
}
