import {
  defaultTextMapGetter,
  defaultTextMapSetter,
  isSpanContextValid,
  ROOT_CONTEXT,
  SamplingDecision,
  SpanKind,
  trace,
  type Context,
  type Link,
  type Tracer,
} from '@opentelemetry/api';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter as JsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor, type Sampler } from '@opentelemetry/sdk-trace-base';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import type {
  SpanInProgress,
  SpanRole,
  SpanStart,
  TraceCarrier,
  TraceParent,
  TracerPort,
} from '../../ports/tracer.port';
import { DecidedTraceIds } from './decided-trace-ids';
import { RecordedSpan } from './recorded-span';
import { SampledOutCall } from './sampled-out-call';
import { samplerFor } from './sampler';
import type { TracingSettings } from './tracing-settings';

const KINDS: Record<SpanRole, SpanKind> = {
  internal: SpanKind.INTERNAL,
  server: SpanKind.SERVER,
  client: SpanKind.CLIENT,
  producer: SpanKind.PRODUCER,
  consumer: SpanKind.CONSUMER,
};

/** W3C Trace Context and Baggage, the propagation every hop (HTTP, sockets, the event bus) uses. */
const propagator = new CompositePropagator({
  propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()],
});

/** What the work of a span that is not sampled gets: it records nothing, and says so. */
const UNRECORDED: SpanInProgress = Object.freeze({
  recording: false,
  setAttributes: () => undefined,
  recordError: () => undefined,
});

/**
 * What a root's sampler is asked with when the span has no attributes or links yet (the built-in samplers only read
 * them).
 */
const NO_ATTRIBUTES = Object.freeze({});
const NO_LINKS: Link[] = [];

/**
 * The propagated context of a request, if it carries one: most carry neither header, and then nothing is parsed or
 * copied.
 */
function extracted(carrier: TraceCarrier): Context {
  if (carrier.traceparent === undefined && carrier.baggage === undefined) return ROOT_CONTEXT;
  return propagator.extract(ROOT_CONTEXT, carrier, defaultTextMapGetter);
}

/**
 * The tracer of one composed application: its own provider (two applications in one process
 * keep their own service names), spans batched to the OTLP endpoint over HTTP (protobuf or
 * JSON). A `TraceParent` is an OpenTelemetry context (the span, the trace's baggage) that the
 * callers hand on with each call, or for a call left out by sampling a `SampledOutCall`, which
 * makes that context only when asked. No context manager is installed: an AsyncLocalStorage store in
 * use makes Node track every promise of the process, a cost every call would pay, traced or not.
 */
export class OpenTelemetryTracer implements TracerPort {
  private readonly provider: BasicTracerProvider;
  private readonly tracer: Tracer;
  private readonly sampler: Sampler;
  private readonly ids = new DecidedTraceIds();

  constructor(settings: TracingSettings, serviceVersion: string) {
    const Exporter = settings.protocol === 'http/json' ? JsonTraceExporter : ProtobufTraceExporter;
    this.sampler = samplerFor(settings.sampler, settings.samplerRatio);
    this.provider = new BasicTracerProvider({
      resource: resourceFromAttributes({
        [ATTR_SERVICE_NAME]: settings.serviceName,
        [ATTR_SERVICE_VERSION]: serviceVersion,
      }),
      sampler: this.sampler,
      idGenerator: this.ids,
      spanProcessors: [
        new BatchSpanProcessor(new Exporter({ url: settings.tracesUrl }), {
          scheduledDelayMillis: settings.scheduleDelayMs,
        }),
      ],
    });
    this.tracer = this.provider.getTracer(settings.serviceName, serviceVersion);
  }

  /**
   * Not async: a span that is not recorded adds no promise of its own to the call (a throw still
   * becomes a rejection). Sampling is decided once, at the root: under a call left out, every
   * sampler `OTEL_TRACES_SAMPLER` names leaves a span of this process out too (the parent-based
   * ones by the parent's flag, the ratio ones by the same trace id), so that costs one check.
   */
  inSpan<T>(
    name: string,
    start: SpanStart,
    parent: TraceParent | undefined,
    work: (span: SpanInProgress, context: TraceParent) => Promise<T>,
  ): Promise<T> {
    try {
      const { remoteParent } = start;
      if (remoteParent === undefined && parent instanceof SampledOutCall)
        return work(UNRECORDED, parent as unknown as TraceParent);
      const kind = KINDS[start.role];
      const links = linksTo(start.links);
      let from: Context;
      if (remoteParent === undefined && parent !== undefined) {
        from = contextOf(parent);
      } else {
        from = remoteParent === undefined ? ROOT_CONTEXT : extracted(remoteParent);
        const sampledOut = this.sampledOut(from, name, kind, links);
        if (sampledOut !== undefined) return work(UNRECORDED, sampledOut as unknown as TraceParent);
      }
      const started = this.tracer.startSpan(name, { kind, links }, from);
      const context = parentOf(trace.setSpan(from, started));
      // Not recorded although sampled in (no built-in sampler does that): ids to hand on, nothing to record or end.
      if (!started.isRecording()) return work(UNRECORDED, context);
      const span = new RecordedSpan(started);
      if (start.attributes) span.setAttributes(start.attributes());
      return recorded(span, context, work);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * The sampler's decision on a root span (of the trace, or of this process under a remote
   * parent), asked before the span exists: the call left out, or undefined when the span is to be
   * made, with the same trace id.
   */
  private sampledOut(
    from: Context,
    name: string,
    kind: SpanKind,
    links: Link[] | undefined,
  ): SampledOutCall | undefined {
    const remote = trace.getSpanContext(from);
    const continued = remote !== undefined && isSpanContextValid(remote);
    const traceId = continued ? remote.traceId : this.ids.newTraceId();
    if (
      this.sampler.shouldSample(from, traceId, name, kind, NO_ATTRIBUTES, links ?? NO_LINKS).decision ===
      SamplingDecision.NOT_RECORD
    ) {
      return new SampledOutCall(from, traceId, continued ? remote.traceState : undefined);
    }
    if (!continued) this.ids.startRootOn(traceId);
    return undefined;
  }

  inject(context: TraceParent, carrier: Record<string, string>): void {
    propagator.inject(this.contextOf(context), carrier, defaultTextMapSetter);
  }

  logFields(context: TraceParent): Record<string, string> {
    const span = trace.getSpan(this.contextOf(context));
    if (!span) return {};
    const { traceId, spanId } = span.spanContext();
    return { trace_id: traceId, span_id: spanId };
  }

  /** The OpenTelemetry context a `TraceParent` stands for (made now for a call left out). */
  private contextOf(parent: TraceParent): Context {
    return parent instanceof SampledOutCall ? parent.context(this.ids) : contextOf(parent);
  }

  /** Sends the spans still batched, then stops. */
  shutdown(): Promise<void> {
    return this.provider.shutdown();
  }
}

/** Runs a recorded span's work: a rejection is recorded on the span, which ends when the work settles. */
async function recorded<T>(
  span: RecordedSpan,
  context: TraceParent,
  work: (span: SpanInProgress, context: TraceParent) => Promise<T>,
): Promise<T> {
  try {
    return await work(span, context);
  } catch (error) {
    span.recordError(error);
    throw error;
  } finally {
    span.end();
  }
}

/** The port's opaque value and the OpenTelemetry context it is, both ways. */
function parentOf(context: Context): TraceParent {
  return context as unknown as TraceParent;
}

function contextOf(parent: TraceParent): Context {
  return parent as unknown as Context;
}

function linksTo(carriers: readonly TraceCarrier[] | undefined): Link[] | undefined {
  if (!carriers) return undefined;
  const links: Link[] = [];
  for (const carrier of carriers) {
    const linked = trace.getSpanContext(propagator.extract(ROOT_CONTEXT, carrier, defaultTextMapGetter));
    if (linked) links.push({ context: linked });
  }
  return links;
}
