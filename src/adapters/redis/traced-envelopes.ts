import { copyWith } from '../../domain/plain-record';
import type { EventEnvelope } from '../../ports/event-bus.port';
import type { TraceParent, TracerPort } from '../../ports/tracer.port';

/** The messaging attributes of an envelope's span: the service's template path, never the record's. */
function spanAttributes(destination: string, operation: 'send' | 'process', envelope: EventEnvelope) {
  return {
    'messaging.system': 'redis',
    'messaging.destination.name': destination,
    'messaging.operation.type': operation,
    'hexa.event': `${envelope.routing.service} ${envelope.event}`,
  };
}

/**
 * Sends an envelope in a producer span whose trace context it carries (`traceparent`,
 * `tracestate` only), so that the instances delivering it link to it. The span ends at once:
 * sending is fire and forget.
 */
export function sendTraced(
  tracer: TracerPort,
  destination: string,
  envelope: EventEnvelope,
  parent: TraceParent | undefined,
  send: (envelope: EventEnvelope) => void,
  onFailure: (error: unknown) => void,
): void {
  tracer
    .inSpan(
      `publish ${destination}`,
      { role: 'producer', attributes: () => spanAttributes(destination, 'send', envelope) },
      parent,
      async (_span, context) => {
        const trace: Record<string, string> = {};
        tracer.inject(context, trace);
        send(
          copyWith(envelope, {
            trace: { traceparent: trace.traceparent, ...(trace.tracestate ? { tracestate: trace.tracestate } : {}) },
          }),
        );
      },
    )
    .catch(onFailure);
}

/** Delivers an envelope in a consumer span of a trace of its own, linked to the span that sent it. */
export function deliverTraced(
  tracer: TracerPort,
  destination: string,
  envelope: EventEnvelope,
  deliver: () => void,
  onFailure: (error: unknown) => void,
): void {
  const links = envelope.trace ? [envelope.trace] : undefined;
  tracer
    .inSpan(
      `process ${destination}`,
      { role: 'consumer', attributes: () => spanAttributes(destination, 'process', envelope), links },
      undefined,
      async () => deliver(),
    )
    .catch(onFailure);
}
