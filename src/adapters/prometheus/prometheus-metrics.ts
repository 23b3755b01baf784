import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { EventStage, MetricsExposition, MetricsPort } from '../../ports/metrics.port';

/** OpenTelemetry's advised buckets for `http.server.request.duration` (seconds). */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

/**
 * The application's measurements in a registry of its own (two applications in one process keep
 * theirs apart), with Node's process metrics (event-loop delay, heap, GC) read at each scrape.
 * The HTTP histogram is OpenTelemetry's `http.server.request.duration` under its Prometheus name.
 */
export class PrometheusMetrics implements MetricsPort, MetricsExposition {
  private readonly registry = new Registry();
  private readonly httpDuration = new Histogram({
    name: 'http_server_request_duration_seconds',
    help: 'Duration of HTTP server requests to service routes (OpenTelemetry http.server.request.duration)',
    labelNames: ['http_request_method', 'http_route', 'http_response_status_code'] as const,
    buckets: DURATION_BUCKETS,
    registers: [this.registry],
  });
  private readonly callDuration = new Histogram({
    name: 'hexa_service_call_duration_seconds',
    help: 'Duration of service calls (hooks and method), from every transport and from inside the server',
    labelNames: ['service', 'method', 'status'] as const,
    buckets: DURATION_BUCKETS,
    registers: [this.registry],
  });
  private readonly callErrors = new Counter({
    name: 'hexa_service_call_errors_total',
    help: 'Service calls that failed, by the status of their error',
    labelNames: ['service', 'method', 'status'] as const,
    registers: [this.registry],
  });
  private readonly sockets = new Gauge({
    name: 'hexa_socket_connections',
    help: 'Socket connections open now',
    registers: [this.registry],
  });
  private readonly busEvents = new Counter({
    name: 'hexa_bus_events_total',
    help:
      'Service events shared between instances: published on the bus, delivered from it to this instance (its ' +
      'own included, which it skips), or dropped',
    labelNames: ['stage'] as const,
    registers: [this.registry],
  });
  private readonly storeErrors = new Counter({
    name: 'hexa_store_errors_total',
    help: "Store calls that failed by the store's own fault (unreachable database, unexpected error), not 4xx answers",
    labelNames: ['collection', 'operation'] as const,
    registers: [this.registry],
  });
  private readonly remoteErrors = new Counter({
    name: 'hexa_remote_binding_errors_total',
    help: 'Calls to a service bound to another server that failed there or on the way (unreachable, refused, 5xx)',
    labelNames: ['service'] as const,
    registers: [this.registry],
  });

  readonly contentType: string;

  constructor() {
    this.contentType = this.registry.contentType;
    collectDefaultMetrics({ register: this.registry });
  }

  httpRequest(method: string, route: string, status: number, seconds: number): void {
    this.httpDuration.observe(
      { http_request_method: method, http_route: route, http_response_status_code: status },
      seconds,
    );
  }

  serviceCall(path: string, method: string, status: number, seconds: number): void {
    this.callDuration.observe({ service: path, method, status }, seconds);
    if (status >= 400) this.callErrors.inc({ service: path, method, status });
  }

  socketConnections(change: 1 | -1): void {
    this.sockets.inc(change);
  }

  busEvent(stage: EventStage): void {
    this.busEvents.inc({ stage });
  }

  storeError(collection: string, operation: string): void {
    this.storeErrors.inc({ collection, operation });
  }

  remoteBindingError(path: string): void {
    this.remoteErrors.inc({ service: path });
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }
}
