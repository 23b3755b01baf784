import type { Params } from '../../ports/service-params';
import { TRACE_PARENT, type TracerPort } from '../../ports/tracer.port';

/**
 * `trace_id` and `span_id` for a log line written while serving the call of `params` (none when
 * tracing is off or the call is not traced): the line then joins the call's trace.
 */
export function traceLogFields(
  tracer: Pick<TracerPort, 'logFields'> | undefined,
  params: Params | undefined,
): Record<string, string> {
  const parent = params?.[TRACE_PARENT];
  return tracer !== undefined && parent !== undefined ? tracer.logFields(parent) : {};
}
