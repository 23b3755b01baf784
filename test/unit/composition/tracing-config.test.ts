import { ConfigError, loadConfig } from '../../../src/composition/load-config';

const tracing = (env: Record<string, string>) => loadConfig({ NODE_ENV: 'test', ...env }).tracing;

describe('tracing from the OTEL_* variables', () => {
  it('is off without an OTLP endpoint, with OTEL_SDK_DISABLED=true and with OTEL_TRACES_EXPORTER=none', () => {
    expect(tracing({})).toBeUndefined();
    expect(tracing({ OTEL_SERVICE_NAME: 'api', OTEL_TRACES_SAMPLER: 'always_on' })).toBeUndefined();
    expect(
      tracing({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'true' }),
    ).toBeUndefined();
    expect(
      tracing({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_TRACES_EXPORTER: 'none' }),
    ).toBeUndefined();
  });

  it('sends to <base>/v1/traces, or to the traces endpoint as given, with the specification’s defaults', () => {
    expect(tracing({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toEqual({
      serviceName: 'unknown_service:node',
      tracesUrl: 'http://collector:4318/v1/traces',
      protocol: 'http/protobuf',
      sampler: 'parentbased_always_on',
      samplerRatio: 1,
      scheduleDelayMs: 5000,
    });
    expect(tracing({ OTEL_EXPORTER_OTLP_ENDPOINT: 'https://collector.example/otlp/' })?.tracesUrl).toBe(
      'https://collector.example/otlp/v1/traces',
    );
    expect(
      tracing({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://b:4318/custom',
      })?.tracesUrl,
    ).toBe('http://b:4318/custom');
  });

  it(
    'reads the service name, the protocol (the traces one first), the ' + 'sampler with its ratio and the batch delay',
    () => {
      expect(
        tracing({
          OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://b:4318/v1/traces',
          OTEL_SERVICE_NAME: 'messages-api',
          OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
          OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
          OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
          OTEL_TRACES_SAMPLER_ARG: '0.01',
          OTEL_BSP_SCHEDULE_DELAY: '200',
        }),
      ).toEqual({
        serviceName: 'messages-api',
        tracesUrl: 'http://b:4318/v1/traces',
        protocol: 'http/json',
        sampler: 'parentbased_traceidratio',
        samplerRatio: 0.01,
        scheduleDelayMs: 200,
      });
      expect(
        tracing({
          OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318',
          OTEL_TRACES_SAMPLER: 'always_on',
          OTEL_TRACES_SAMPLER_ARG: '0.5',
        })?.samplerRatio,
      ).toBe(1);
    },
  );

  it.each([
    [
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' },
      /OTEL_EXPORTER_OTLP_ENDPOINT must be an absolute http\(s\) URL/,
    ],
    [
      { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'ftp://collector/v1/traces' },
      /OTEL_EXPORTER_OTLP_TRACES_ENDPOINT must be an absolute http\(s\) URL/,
    ],
    [
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' },
      /grpc is not offered: use http\/protobuf/,
    ],
    [
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'thrift' },
      /OTEL_EXPORTER_OTLP_TRACES_PROTOCOL must be one of http\/protobuf, http\/json/,
    ],
    [
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318', OTEL_TRACES_SAMPLER: 'jaeger_remote' },
      /OTEL_TRACES_SAMPLER must be one of always_on/,
    ],
    [
      {
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318',
        OTEL_TRACES_SAMPLER: 'traceidratio',
        OTEL_TRACES_SAMPLER_ARG: '2',
      },
      /OTEL_TRACES_SAMPLER_ARG must be a ratio from 0 to 1/,
    ],
    [
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318', OTEL_BSP_SCHEDULE_DELAY: '5s' },
      /OTEL_BSP_SCHEDULE_DELAY must be a number of milliseconds/,
    ],
    [
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318', OTEL_TRACES_EXPORTER: 'zipkin' },
      /OTEL_TRACES_EXPORTER must be otlp or none/,
    ],
  ])('refuses %j with one line naming the variable', (env, message) => {
    expect(() => tracing(env)).toThrow(ConfigError);
    expect(() => tracing(env)).toThrow(message);
  });
});

describe('METRICS', () => {
  it('is on outside production by default, off in production, and as set', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).metrics).toBe(true);
    expect(
      loadConfig({ NODE_ENV: 'production', AUTH_SECRET: 'x'.repeat(32), MONGODB_URL: 'mongodb://db.example:27017/app' })
        .metrics,
    ).toBe(false);
    expect(
      loadConfig({
        NODE_ENV: 'production',
        AUTH_SECRET: 'x'.repeat(32),
        MONGODB_URL: 'mongodb://db.example:27017/app',
        METRICS: 'true',
      }).metrics,
    ).toBe(true);
    expect(loadConfig({ NODE_ENV: 'development', METRICS: 'false' }).metrics).toBe(false);
    expect(() => loadConfig({ METRICS: 'yes' })).toThrow(/METRICS must be one of true, false/);
  });
});
