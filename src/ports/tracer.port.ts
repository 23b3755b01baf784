/** Span attribute values: the primitive types OpenTelemetry keeps (undefined ones are left out). */
export type SpanAttributes = Record<string, string | number | boolean | undefined>;

/** The role of a span in the call, as OpenTelemetry's span kinds name it. */
export type SpanRole = 'internal' | 'server' | 'client' | 'producer' | 'consumer';

/** Headers (or an envelope field) carrying W3C trace context: `traceparent`, `tracestate`, `baggage`. */
export type TraceCarrier = Readonly<Record<string, string | string[] | undefined>>;

declare const traceParentBrand: unique symbol;

/**
 * The trace context a call runs in (its span, the trace's baggage), handed on with the call to
 * what it calls: opaque outside the tracer that made it.
 */
export interface TraceParent {
  readonly [traceParentBrand]: true;
}

/**
 * Where a call's params carry its `TraceParent`. A symbol key: `{ ...params }` keeps it (an
 * internal call made with the caller's params is the caller's child), `JSON.stringify` and
 * `Object.keys` never see it (it cannot reach the wire, the event bus, events or answers).
 */
export const TRACE_PARENT: unique symbol = Symbol('hexa.traceParent');

export interface SpanStart {
  readonly role: SpanRole;
  /** The span's attributes, asked for only when the span is recorded (an unsampled call builds none). */
  readonly attributes?: () => SpanAttributes;
  /** Continue the trace these incoming headers carry (a request from another process) rather than `parent`. */
  readonly remoteParent?: TraceCarrier;
  /** Traces this span is linked to without being their child (the publisher of a delivered event). */
  readonly links?: readonly TraceCarrier[];
}

/** A span being recorded (or, for an unsampled call, one that records nothing). */
export interface SpanInProgress {
  /** False for a span that is not sampled: attributes set on it are dropped, so callers may skip building them. */
  readonly recording: boolean;
  setAttributes(attributes: SpanAttributes): void;
  /** Records the error on the span; a server error (not a client's 4xx) also marks the span failed. */
  recordError(error: unknown): void;
}

/**
 * Tracing, as the application and the adapters start spans. Absent when tracing is off: callers
 * check for it once and pay nothing else. There is no ambient "active span": the parent of each
 * span is handed to it explicitly (in a call, `params[TRACE_PARENT]`).
 */
export interface TracerPort {
  /**
   * Runs `work` in a new span, a child of `parent` (or of `start.remoteParent`; a root without
   * either). `work` gets the span and the context to hand on to what it calls, whose spans are
   * then children of this one. A rejection is recorded; the span ends when `work` settles.
   */
  inSpan<T>(
    name: string,
    start: SpanStart,
    parent: TraceParent | undefined,
    work: (span: SpanInProgress, context: TraceParent) => Promise<T>,
  ): Promise<T>;
  /** Writes `context` into outgoing headers (or an envelope's carrier) as W3C trace context. */
  inject(context: TraceParent, carrier: Record<string, string>): void;
  /** `trace_id` and `span_id` of `context`'s span, for the log lines of the call it belongs to. */
  logFields(context: TraceParent): Record<string, string>;
}
