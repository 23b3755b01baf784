import { context, defaultTextMapGetter, defaultTextMapSetter, ROOT_CONTEXT, SpanKind, trace, type Link, type Tracer } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter as JsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import type { SpanInProgress, SpanRole, SpanStart, TraceCarrier, TracerPort } from '../../ports/tracer.port';
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

/** One context manager for the process: the first tracer installs it (unless the process has one). */
let contextManagerInstalled = false;

/** W3C Trace Context and Baggage, the propagation every hop (HTTP, sockets, the event bus) uses. */
const propagator = new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] });

/**
 * The tracer of one composed application: its own provider (two applications in one process
 * keep their own service names), spans batched to the OTLP endpoint over HTTP (protobuf or
 * JSON). The active span follows async work through the process-wide AsyncLocalStorage context
 * manager, installed by the first tracer unless the process already has one.
 */
export class OpenTelemetryTracer implements TracerPort {
  private readonly provider: BasicTracerProvider;
  private readonly tracer: Tracer;

  constructor(settings: TracingSettings, serviceVersion: string) {
    if (!contextManagerInstalled) {
      contextManagerInstalled = true;
      context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    }
    const Exporter = settings.protocol === 'http/json' ? JsonTraceExporter : ProtobufTraceExporter;
    this.provider = new BasicTracerProvider({
      resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: settings.serviceName, [ATTR_SERVICE_VERSION]: serviceVersion }),
      sampler: samplerFor(settings.sampler, settings.samplerRatio),
      spanProcessors: [new BatchSpanProcessor(new Exporter({ url: settings.tracesUrl }), { scheduledDelayMillis: settings.scheduleDelayMs })],
    });
    this.tracer = this.provider.getTracer(settings.serviceName, serviceVersion);
  }

  async inSpan<T>(name: string, start: SpanStart, work: (span: SpanInProgress) => Promise<T>): Promise<T> {
    const parent = start.remoteParent ? propagator.extract(ROOT_CONTEXT, start.remoteParent, defaultTextMapGetter) : context.active();
    const span = new RecordedSpan(this.tracer.startSpan(name, { kind: KINDS[start.role], attributes: start.attributes, links: linksTo(start.links) }, parent));
    try {
      return await context.with(trace.setSpan(parent, span.span), work, undefined, span);
    } catch (error) {
      span.recordError(error);
      throw error;
    } finally {
      span.end();
    }
  }

  startSpan(name: string, start: SpanStart): SpanInProgress {
    return new RecordedSpan(this.tracer.startSpan(name, { kind: KINDS[start.role], attributes: start.attributes, links: linksTo(start.links) }));
  }

  inject(carrier: Record<string, string>): void {
    propagator.inject(context.active(), carrier, defaultTextMapSetter);
  }

  /** `trace_id` and `span_id` of the active span, for the log line being written (none outside a span). */
  logFields(): Record<string, string> {
    const span = trace.getSpan(context.active());
    if (!span) return {};
    const { traceId, spanId } = span.spanContext();
    return { trace_id: traceId, span_id: spanId };
  }

  /** Sends the spans still batched, then stops. */
  shutdown(): Promise<void> {
    return this.provider.shutdown();
  }
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

