import type { TraceParent } from './tracer.port';

/**
 * What crosses instances for one published service event: the published view and the few
 * routing fields publishers need. Never tokens, headers, users, passwords or the hook context.
 */
export interface EventEnvelope {
  /** The event name (`created`, `patched`, or a custom one). */
  event: string;
  /** The concrete service path (placeholders filled in), as clients listen on it. */
  path: string;
  /** The published view of the record (hidden fields already stripped). */
  data: unknown;
  routing: {
    /** The instance that published it (it has delivered locally already). */
    origin: string;
    /** The registered (template) path: which publishers apply. */
    service: string;
    /** The method that caused it, when a call did. */
    method?: string;
    /** Values of the path's placeholders. */
    route?: Record<string, string>;
    /** On an event log: the origin delivered it itself at once (the log was unreachable), as its n-th such event. */
    atOnce?: number;
    /** On an event log: the origin's count of envelopes appended, this one included (tells a rewritten one apart). */
    sequence?: number;
  };
  /**
   * W3C trace context of the publishing span (`traceparent`, `tracestate`), when tracing is on: the delivering instance
   * links to it.
   */
  trace?: Record<string, string>;
}

/** A bus shared by the instances of one application (Redis pub/sub, ...). Delivery is best effort. */
export interface EventBusPort {
  /**
   * Never throws and never waits: a bus that is down drops the envelope (and logs once per
   * outage). `traceParent`: the span of the call that caused the event, when traced.
   */
  publish(envelope: EventEnvelope, traceParent?: TraceParent): void;
  /** Every envelope published by any instance, this one included. */
  subscribe(handler: (envelope: EventEnvelope) => void): void;
  close(): Promise<void>;
}
