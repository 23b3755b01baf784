import { trace, TraceFlags, type Context, type TraceState } from '@opentelemetry/api';
import type { IdGenerator } from '@opentelemetry/sdk-trace-base';

/**
 * The trace context of a call its root span's sampler left out: no span object, no span id, no
 * context copy while it runs. Its spans are not made; what it calls goes on in it. Only when
 * something asks for the context itself (an outgoing request's `traceparent`, a log line's ids)
 * is it made, once: the trace id the sampler saw, a span id of its own, the sampled flag off and
 * the incoming `tracestate` and baggage, so the next process leaves the trace out too.
 */
export class SampledOutCall {
  private made?: Context;

  constructor(
    private readonly from: Context,
    private readonly traceId: string,
    private readonly traceState: TraceState | undefined,
  ) {}

  context(ids: IdGenerator): Context {
    return (this.made ??= trace.setSpanContext(this.from, {
      traceId: this.traceId,
      spanId: ids.generateSpanId(),
      traceFlags: TraceFlags.NONE,
      traceState: this.traceState,
    }));
  }
}
