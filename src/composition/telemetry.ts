import type { OpenTelemetryTracer } from '../adapters/opentelemetry';
import type { PrometheusMetrics } from '../adapters/prometheus';
import type { AppConfig } from './app-config';

/** Tracing (`OTEL_*`) and metrics (`METRICS`) of one composed application; either may be off. */
export interface Telemetry {
  readonly tracer?: OpenTelemetryTracer;
  readonly metrics?: PrometheusMetrics;
  /** Sends the spans still batched and stops the tracer. */
  close(): Promise<void>;
}

/** The OpenTelemetry SDK and prom-client load only when they are on: an application without them pays nothing. */
export function createTelemetry(config: AppConfig, serviceVersion: string): Telemetry {
  const tracer = config.tracing
    ? new (require('../adapters/opentelemetry') as typeof import('../adapters/opentelemetry')).OpenTelemetryTracer(
        config.tracing,
        serviceVersion,
      )
    : undefined;
  const metrics = config.metrics
    ? new (require('../adapters/prometheus') as typeof import('../adapters/prometheus')).PrometheusMetrics()
    : undefined;
  return {
    tracer,
    metrics,
    close: async () => {
      await tracer?.shutdown();
    },
  };
}
