/** Span attribute values: the primitive types OpenTelemetry keeps (undefined ones are left out). */
export type SpanAttributes = Record<string, string | number | boolean | undefined>;

/** The role of a span in the call, as OpenTelemetry's span kinds name it. */
export type SpanRole = 'internal' | 'server' | 'client' | 'producer' | 'consumer';

/** Headers (or an envelope field) carrying W3C trace context: `traceparent`, `tracestate`, `baggage`. */
export type TraceCarrier = Readonly<Record<string, string | string[] | undefined>>;

export interface SpanStart {
  readonly role: SpanRole;
  readonly attributes?: SpanAttributes;
  /** Continue the trace these incoming headers carry (a request from another process) rather than the active one. */
  readonly remoteParent?: TraceCarrier;
  /** Traces this span is linked to without being their child (the publisher of a delivered event). */
  readonly links?: readonly TraceCarrier[];
}

/** A span being recorded. */
export interface SpanInProgress {
  setAttributes(attributes: SpanAttributes): void;
  /** Records the error on the span; a server error (not a client's 4xx) also marks the span failed. */
  recordError(error: unknown): void;
  end(): void;
}

/**
 * Tracing, as the application and the adapters start spans. Absent when tracing is off: callers
 * check for it once and pay nothing else.
 */
export interface TracerPort {
  /**
   * Runs `work` in a new span (a child of the active span, or of `remoteParent`); spans started
   * inside it are its children. A rejection is recorded; the span ends when `work` settles.
   */
  inSpan<T>(name: string, start: SpanStart, work: (span: SpanInProgress) => Promise<T>): Promise<T>;
  /** Starts a child of the active span without making it active: for work seen as start and end events. */
  startSpan(name: string, start: SpanStart): SpanInProgress;
  /** Writes the active trace context into outgoing headers (or an envelope's carrier). */
  inject(carrier: Record<string, string>): void;
}
