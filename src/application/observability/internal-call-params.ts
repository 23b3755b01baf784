import type { Params } from '../../ports/service-params';
import { TRACE_PARENT } from '../../ports/tracer.port';

/**
 * The params of an internal call made while serving `caller` (a user's record loaded for a token,
 * a relation's records): `params` plus the caller's trace parent, so that with tracing on the
 * internal call's span is a child of the caller's rather than a trace of its own.
 */
export function internalCallParams(caller: Params, params: Params = {}): Params {
  const parent = caller[TRACE_PARENT];
  if (parent !== undefined) params[TRACE_PARENT] = parent;
  return params;
}
