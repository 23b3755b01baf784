import { SpanStatusCode, type Span } from '@opentelemetry/api';
import { ServiceError } from '../../domain/errors';
import type { SpanAttributes, SpanInProgress } from '../../ports/tracer.port';

/**
 * An OpenTelemetry span behind the port. Every error gets `error.type`; only a server's own
 * failure (5xx or an unexpected error) is an exception event and an error status: a client's 4xx
 * is a normal answer of the server.
 */
export class RecordedSpan implements SpanInProgress {
  readonly recording = true;

  constructor(private readonly span: Span) {}

  setAttributes(attributes: SpanAttributes): void {
    for (const name in attributes) {
      const value = attributes[name];
      if (value !== undefined) this.span.setAttribute(name, value);
    }
  }

  recordError(error: unknown): void {
    const known = error instanceof ServiceError;
    this.span.setAttribute('error.type', known ? error.className : error instanceof Error ? error.name : 'Error');
    if (known && error.code < 500) return;
    this.span.recordException(error instanceof Error ? error : String(error));
    this.span.setStatus({
      code: SpanStatusCode.ERROR,
      message: error instanceof Error ? error.message.slice(0, 200) : undefined,
    });
  }

  /** Ended by the tracer when the span's work settles. */
  end(): void {
    this.span.end();
  }
}
