import type { EventEnvelope } from '../../ports/event-bus.port';

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** An envelope from the bus, checked field by field; anything else is undefined. */
export function parseEnvelope(text: string): EventEnvelope | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isRecord(value) || typeof value.event !== 'string' || typeof value.path !== 'string' || !isRecord(value.routing)) return undefined;
  const { origin, service, method, route } = value.routing;
  if (typeof origin !== 'string' || typeof service !== 'string') return undefined;
  if (method !== undefined && typeof method !== 'string') return undefined;
  if (route !== undefined && !(isRecord(route) && Object.values(route).every((part) => typeof part === 'string'))) return undefined;
  return {
    event: value.event,
    path: value.path,
    data: value.data,
    routing: { origin, service, ...(method !== undefined ? { method } : {}), ...(route !== undefined ? { route: route as Record<string, string> } : {}) },
  };
}
