import { defaultTextMapGetter, defaultTextMapSetter, ROOT_CONTEXT, SpanKind, trace, TraceFlags, type Context, type Link, type Tracer } from '@opentelemetry/api';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter as JsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import type { SpanInProgress, SpanRole, SpanStart, TraceCarrier, TraceParent, TracerPort } from '../../ports/tracer.port';
import { RecordedSpan } from './recorded-span';
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
const propagator = new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] });

/** What the work of a span that is not sampled gets: it records nothing, and says so. */
const UNRECORDED: SpanInProgress = Object.freeze({ recording: false, setAttributes: () => undefined, recordError: () => undefined });

/**
 * The tracer of one composed application: its own provider (two applications in one process
 * keep their own service names), spans batched to the OTLP endpoint over HTTP (protobuf or
 * JSON). A `TraceParent` is an OpenTelemetry context (the span, the trace's baggage) that the
 * callers hand on with each call. No context manager is installed: an AsyncLocalStorage store in
 * use makes Node track every promise of the process, a cost every call would pay, traced or not.
 */
export class OpenTelemetryTracer implements TracerPort {
  private readonly provider: BasicTracerProvider;
  private readonly tracer: Tracer;
  /** With a parent-based sampler, a span under one that is not sampled is not sampled either: it is not started at all. */
  private readonly childrenFollowTheirParent: boolean;

  constructor(settings: TracingSettings, serviceVersion: string) {
    const Exporter = settings.protocol === 'http/json' ? JsonTraceExporter : ProtobufTraceExporter;
    this.provider = new BasicTracerProvider({
      resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: settings.serviceName, [ATTR_SERVICE_VERSION]: serviceVersion }),
      sampler: samplerFor(settings.sampler, settings.samplerRatio),
      spanProcessors: [new BatchSpanProcessor(new Exporter({ url: settings.tracesUrl }), { scheduledDelayMillis: settings.scheduleDelayMs })],
    });
    this.tracer = this.provider.getTracer(settings.serviceName, serviceVersion);
    this.childrenFollowTheirParent = settings.sampler.startsWith('parentbased_');
  }

  /** Not async: a span that is not recorded adds no promise of its own to the call (a throw still becomes a rejection). */
  inSpan<T>(name: string, start: SpanStart, parent: TraceParent | undefined, work: (span: SpanInProgress, context: TraceParent) => Promise<T>): Promise<T> {
    try {
      const from = start.remoteParent ? propagator.extract(ROOT_CONTEXT, start.remoteParent, defaultTextMapGetter) : parent === undefined ? ROOT_CONTEXT : contextOf(parent);
      // An unsampled call's own spans: the work goes on in the parent's context, nothing is made.
      if (this.childrenFollowTheirParent && start.remoteParent === undefined && parent !== undefined && isSampledOut(from)) return work(UNRECORDED, parent);
      const started = this.tracer.startSpan(name, { kind: KINDS[start.role], links: linksTo(start.links) }, from);
      const context = parentOf(trace.setSpan(from, started));
      // Not sampled (a root, or where the sampler decides for every span): ids to hand on, nothing to record or end.
      if (!started.isRecording()) return work(UNRECORDED, context);
      const span = new RecordedSpan(started);
      if (start.attributes) span.setAttributes(start.attributes());
      return recorded(span, context, work);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  inject(context: TraceParent, carrier: Record<string, string>): void {
    propagator.inject(contextOf(context), carrier, defaultTextMapSetter);
  }

  logFields(context: TraceParent): Record<string, string> {
    const span = trace.getSpan(contextOf(context));
    if (!span) return {};
    const { traceId, spanId } = span.spanContext();
    return { trace_id: traceId, span_id: spanId };
  }

  /** Sends the spans still batched, then stops. */
  shutdown(): Promise<void> {
    return this.provider.shutdown();
  }
}

/** Runs a recorded span's work: a rejection is recorded on the span, which ends when the work settles. */
async function recorded<T>(span: RecordedSpan, context: TraceParent, work: (span: SpanInProgress, context: TraceParent) => Promise<T>): Promise<T> {
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

function isSampledOut(context: Context): boolean {
  const parentSpan = trace.getSpanContext(context);
  return parentSpan !== undefined && (parentSpan.traceFlags & TraceFlags.SAMPLED) === 0;
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
