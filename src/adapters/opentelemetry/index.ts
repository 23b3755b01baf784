export { OpenTelemetryTracer } from './opentelemetry-tracer';
export {
  OTLP_PROTOCOLS,
  SAMPLER_NAMES,
  type OtlpProtocol,
  type SamplerName,
  type TracingSettings,
} from './tracing-settings';
