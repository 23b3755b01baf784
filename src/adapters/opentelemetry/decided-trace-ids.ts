import { RandomIdGenerator, type IdGenerator } from '@opentelemetry/sdk-trace-base';

/**
 * The provider's ids: the SDK's random ones, except that a root span takes the trace id its
 * sampling was decided on just before it was started (the tracer asks the sampler first, so that
 * a root left out makes no span at all; the SDK then asks the same sampler again, about the same id).
 */
export class DecidedTraceIds implements IdGenerator {
  private readonly random = new RandomIdGenerator();
  private decided?: string;

  /** A new trace id, for the sampler to decide on. */
  newTraceId(): string {
    return this.random.generateTraceId();
  }

  /** `traceId` is the one the next root span takes. */
  startRootOn(traceId: string): void {
    this.decided = traceId;
  }

  generateTraceId(): string {
    const traceId = this.decided ?? this.random.generateTraceId();
    this.decided = undefined;
    return traceId;
  }

  generateSpanId(): string {
    return this.random.generateSpanId();
  }
}
