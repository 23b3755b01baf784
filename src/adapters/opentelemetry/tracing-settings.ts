/** The samplers of `OTEL_TRACES_SAMPLER` that this process offers (the specification's built-in ones). */
export const SAMPLER_NAMES = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;
export type SamplerName = (typeof SAMPLER_NAMES)[number];

/** The OTLP encodings over HTTP (`OTEL_EXPORTER_OTLP_PROTOCOL`); gRPC is not offered. */
export const OTLP_PROTOCOLS = ['http/protobuf', 'http/json'] as const;
export type OtlpProtocol = (typeof OTLP_PROTOCOLS)[number];

/** Tracing as the standard `OTEL_*` variables configure it; absent means tracing is off. */
export interface TracingSettings {
  /** `service.name` of every span's resource (`OTEL_SERVICE_NAME`). */
  readonly serviceName: string;
  /** Where spans are sent: the full traces URL (`.../v1/traces`). */
  readonly tracesUrl: string;
  readonly protocol: OtlpProtocol;
  readonly sampler: SamplerName;
  /** The sampling ratio of the `*traceidratio` samplers (`OTEL_TRACES_SAMPLER_ARG`, 0 to 1). */
  readonly samplerRatio: number;
  /** Milliseconds between two exports of the finished spans (`OTEL_BSP_SCHEDULE_DELAY`). */
  readonly scheduleDelayMs: number;
}
