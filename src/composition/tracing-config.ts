import { OTLP_PROTOCOLS, SAMPLER_NAMES, type TracingSettings } from '../adapters/opentelemetry/tracing-settings';
import { ConfigError } from './config-error';

type Env = Record<string, string | undefined>;

/**
 * Tracing from the OpenTelemetry SDK's standard variables: on when an OTLP endpoint is set
 * (`OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` as the full URL, or `OTEL_EXPORTER_OTLP_ENDPOINT` as the
 * base that `v1/traces` is appended to), off otherwise, with `OTEL_SDK_DISABLED=true` or with
 * `OTEL_TRACES_EXPORTER=none`. Values the specification does not define are refused, not ignored.
 */
export function readTracingConfig(env: Env): TracingSettings | undefined {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return undefined;
  const exporter = env.OTEL_TRACES_EXPORTER?.trim();
  if (exporter === 'none') return undefined;
  if (exporter && exporter !== 'otlp')
    throw new ConfigError(`OTEL_TRACES_EXPORTER must be otlp or none, got "${exporter.slice(0, 100)}"`);
  const tracesUrl = tracesEndpoint(env);
  if (tracesUrl === undefined) return undefined;
  const protocolVariable = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL
    ? 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL'
    : 'OTEL_EXPORTER_OTLP_PROTOCOL';
  const sampler = oneOf(env, 'OTEL_TRACES_SAMPLER', SAMPLER_NAMES, 'parentbased_always_on');
  return {
    serviceName: env.OTEL_SERVICE_NAME?.trim() || 'unknown_service:node',
    tracesUrl,
    protocol: oneOf(env, protocolVariable, OTLP_PROTOCOLS, 'http/protobuf'),
    sampler,
    samplerRatio: sampler.endsWith('traceidratio') ? ratio(env) : 1,
    scheduleDelayMs: milliseconds(env, 'OTEL_BSP_SCHEDULE_DELAY', 5000),
  };
}

function tracesEndpoint(env: Env): string | undefined {
  const signal = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  if (signal) return httpUrl('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', signal);
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (!base) return undefined;
  const url = httpUrl('OTEL_EXPORTER_OTLP_ENDPOINT', base);
  return `${url.endsWith('/') ? url : `${url}/`}v1/traces`;
}

function httpUrl(name: string, value: string): string {
  if (!URL.canParse(value) || !/^https?:$/.test(new URL(value).protocol))
    throw new ConfigError(`${name} must be an absolute http(s) URL, got "${value.slice(0, 200)}"`);
  return value;
}

function ratio(env: Env): number {
  const raw = env.OTEL_TRACES_SAMPLER_ARG?.trim();
  if (!raw) return 1;
  const value = Number(raw);
  if (!/^(0|1|0?\.\d+|1\.0*)$/.test(raw) || value < 0 || value > 1)
    throw new ConfigError(`OTEL_TRACES_SAMPLER_ARG must be a ratio from 0 to 1, got "${raw.slice(0, 100)}"`);
  return value;
}

function milliseconds(env: Env, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  if (!/^\d{1,7}$/.test(raw))
    throw new ConfigError(`${name} must be a number of milliseconds (0 to 9999999), got "${raw.slice(0, 100)}"`);
  return Number(raw);
}

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  if (name.endsWith('PROTOCOL') && raw === 'grpc')
    throw new ConfigError(`${name}=grpc is not offered: use http/protobuf (the default) or http/json`);
  if (!(allowed as readonly string[]).includes(raw))
    throw new ConfigError(`${name} must be one of ${allowed.join(', ')}, got "${raw.slice(0, 100)}"`);
  return raw as T;
}
