import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

const ROOT = path.resolve(__dirname, '../../..');

/** Composes an application in a fresh Node process with `env` and says which telemetry packages it loaded. */
async function loadedTelemetry(env: Record<string, string>): Promise<{ loaded: string[]; observed: boolean }> {
  const script = `
    require('reflect-metadata');
    const { composeApplication } = require('./src/composition-root');
    const { loadConfig } = require('./src/composition/load-config');
    (async () => {
      const composed = await composeApplication(loadConfig(${JSON.stringify({ NODE_ENV: 'test', STORE: 'memory', DATA_DIR: ':memory:', PASSWORD_HASH_COST: '10', ...env })}));
      const loaded = [...new Set(Object.keys(require.cache).map((file) => /node_modules\\/(@opentelemetry\\/[^/]+|prom-client)\\//.exec(file)?.[1]).filter(Boolean))];
      console.log(JSON.stringify({ loaded: loaded.sort(), observed: composed.app.observeCall !== undefined }));
      await composed.close();
    })();`;
  const { stdout } = await promisify(execFile)(process.execPath, ['-r', '@swc-node/register', '-e', script], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '' },
    timeout: 60_000,
  });
  return JSON.parse(stdout.trim().split('\n').pop()!);
}

describe('with no OTEL_* variable and METRICS=false', () => {
  it(
    'loads no OpenTelemetry or Prometheus package and calls run ' + 'unobserved; with an endpoint the SDK loads',
    async () => {
      expect(await loadedTelemetry({ METRICS: 'false' })).toEqual({ loaded: [], observed: false });
      const traced = await loadedTelemetry({ METRICS: 'false', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' });
      expect(traced.observed).toBe(true);
      expect(traced.loaded).toEqual(
        expect.arrayContaining([
          '@opentelemetry/api',
          '@opentelemetry/sdk-trace-base',
          '@opentelemetry/exporter-trace-otlp-proto',
        ]),
      );
      expect(traced.loaded).not.toContain('prom-client');
    },
  );
});
