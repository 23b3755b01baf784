import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { startOtlpReceiver, type OtlpReceiver } from '../../helpers/otlp-receiver';

const ROOT = path.resolve(__dirname, '../../..');
const SERVER = 2;

/**
 * The application as `npm start` runs it (its own pino logger on stdout), in a child process: it
 * serves one request of its own and stops, and its log lines are read here.
 */
async function logLinesOfOneRequest(env: Record<string, string>): Promise<Array<Record<string, unknown>>> {
  const script = `
    require('reflect-metadata');
    const { composeApplication } = require('./src/composition-root');
    const { loadConfig } = require('./src/composition/load-config');
    const { listenHttp } = require('./src/adapters/http');
    (async () => {
      const composed = await composeApplication(loadConfig(${JSON.stringify({ NODE_ENV: 'test', STORE: 'memory', DATA_DIR: ':memory:', PASSWORD_HASH_COST: '10', LOG_LEVEL: 'info', ...env })}));
      const http = await listenHttp(composed.http, { host: '127.0.0.1', port: 0 });
      await fetch(http.url + '/messages?$limit=1', { headers: { 'x-request-id': 'logged-request-1' } });
      await http.close();
      await composed.close();
    })();`;
  const { stdout } = await promisify(execFile)(process.execPath, ['-r', '@swc-node/register', '-e', script], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '' },
    timeout: 60_000,
  });
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('log lines of a traced request', () => {
  let receiver: OtlpReceiver;
  beforeAll(async () => {
    receiver = await startOtlpReceiver();
  });
  afterAll(() => receiver?.close());

  it('carry the trace_id and span_id of the request’s server span beside the request id', async () => {
    const lines = await logLinesOfOneRequest({
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_SERVICE_NAME: 'logged',
    });
    const line = lines.find((entry) => entry.requestId === 'logged-request-1');
    expect(line).toMatchObject({
      msg: 'request completed',
      status: 401,
      trace_id: expect.stringMatching(/^[0-9a-f]{32}$/),
      span_id: expect.stringMatching(/^[0-9a-f]{16}$/),
    });
    // The tracer flushed at close: the span named in the line is the request's server span.
    const span = receiver.spans.find((received) => received.spanId === line!.span_id);
    expect(span).toMatchObject({ service: 'logged', kind: SERVER, name: 'GET /messages', traceId: line!.trace_id });
    expect(span!.attributes['hexa.request_id']).toBe('logged-request-1');
    // Lines outside any request (start-up) carry none.
    expect(lines.filter((entry) => entry.requestId === undefined && entry.trace_id !== undefined)).toEqual([]);
  });

  it('carry neither without tracing', async () => {
    const lines = await logLinesOfOneRequest({});
    expect(lines.find((entry) => entry.requestId === 'logged-request-1')).toMatchObject({ msg: 'request completed' });
    expect(lines.filter((entry) => 'trace_id' in entry || 'span_id' in entry)).toEqual([]);
  });
});
