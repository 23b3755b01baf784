import { io, type Socket } from 'socket.io-client';
import { BOTH_STORES, startApp, type RunningApp } from '../../helpers/app-server';

/** One sample of Prometheus text: `name{label="value",...} number`. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const SAMPLE =
  /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{((?:[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\]|\\.)*",?)*)\})? (-?(?:\d+(?:\.\d+)?(?:e[+-]?\d+)?|\+Inf|-Inf|NaN))$/i;

/**
 * Parses the exposition strictly (values as Go's ParseFloat reads them: `NaN` in any case): every
 * line is a comment (# HELP / # TYPE) or a sample, else the test fails.
 */
function parsePrometheus(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || /^# (HELP|TYPE) [a-zA-Z_:][a-zA-Z0-9_:]* /.test(line)) continue;
    const match = SAMPLE.exec(line);
    if (!match) throw new Error(`not Prometheus text: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, name, value] of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g))
      labels[name] = value;
    samples.push({ name: match[1], labels, value: Number(match[3]) });
  }
  return samples;
}

async function scrape(url: string): Promise<Sample[]> {
  const response = await fetch(`${url}/metrics`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return parsePrometheus(await response.text());
}

const valueOf = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  samples
    .filter(
      (sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
    )
    .reduce((sum, sample) => sum + sample.value, 0);

const post = (url: string, path: string, body: unknown, token?: string) =>
  fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });

describe.each(BOTH_STORES)('GET /metrics on %s', (_store, env) => {
  let app: RunningApp;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    app = await startApp(env);
  });
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await app?.close();
  });

  it('parses as Prometheus text whose counters move with the calls, labelled by route templates only', async () => {
    const before = await scrape(app.url);
    const signUp = await post(app.url, '/users', { email: 'metrics@example.com', password: 'correct horse battery' });
    expect(signUp.status).toBe(201);
    const { _id: userId } = (await signUp.json()) as { _id: string };
    const login = (await (
      await post(app.url, '/authentication', {
        strategy: 'local',
        email: 'metrics@example.com',
        password: 'correct horse battery',
      })
    ).json()) as { accessToken: string };
    expect(
      (
        await post(app.url, '/authentication', {
          strategy: 'local',
          email: 'metrics@example.com',
          password: 'wrong password',
        })
      ).status,
    ).toBe(401);
    const created = (await (await post(app.url, '/messages', { text: 'counted' }, login.accessToken)).json()) as {
      _id: string;
    };
    expect(
      (await fetch(`${app.url}/messages/${created._id}`, { headers: { authorization: `Bearer ${login.accessToken}` } }))
        .status,
    ).toBe(200);
    expect((await fetch(`${app.url}/messages/${created._id}`)).status).toBe(401);
    const socket = io(app.url, { transports: ['websocket'], forceNew: true, reconnection: false });
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => socket.on('connect', resolve).on('connect_error', reject));

    const after = await scrape(app.url);
    const moved = (name: string, labels: Record<string, string>) =>
      valueOf(after, name, labels) - valueOf(before, name, labels);
    expect(
      moved('http_server_request_duration_seconds_count', {
        http_request_method: 'POST',
        http_route: '/users',
        http_response_status_code: '201',
      }),
    ).toBe(1);
    expect(
      moved('http_server_request_duration_seconds_count', {
        http_request_method: 'GET',
        http_route: '/messages/:id',
        http_response_status_code: '200',
      }),
    ).toBe(1);
    expect(
      moved('http_server_request_duration_seconds_count', {
        http_request_method: 'GET',
        http_route: '/messages/:id',
        http_response_status_code: '401',
      }),
    ).toBe(1);
    expect(
      moved('hexa_service_call_duration_seconds_count', { service: 'messages', method: 'create', status: '200' }),
    ).toBe(1);
    expect(moved('hexa_service_call_errors_total', { service: 'messages', method: 'get', status: '401' })).toBe(1);
    // A failed login (a throttled one would be status 429).
    expect(
      moved('hexa_service_call_errors_total', { service: 'authentication', method: 'create', status: '401' }),
    ).toBe(1);
    expect(
      moved('hexa_service_call_duration_seconds_count', { service: 'authentication', method: 'create', status: '200' }),
    ).toBe(1);
    // The store answered NotFound and conflicts as answers, never as its own failures.
    expect(valueOf(after, 'hexa_store_errors_total')).toBe(0);
    expect(valueOf(after, 'hexa_socket_connections')).toBe(valueOf(before, 'hexa_socket_connections') + 1);
    // Node's own: event-loop delay and heap.
    expect(valueOf(after, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
    expect(valueOf(after, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
    // No id, e-mail or token in any label.
    const labelValues = after.flatMap((sample) => Object.values(sample.labels));
    for (const secret of [userId, created._id, 'metrics@example.com', login.accessToken])
      expect(labelValues.filter((value) => value.includes(secret))).toEqual([]);

    socket.close();
    const deadline = Date.now() + 5_000;
    while (valueOf(await scrape(app.url), 'hexa_socket_connections') !== valueOf(before, 'hexa_socket_connections')) {
      if (Date.now() > deadline) throw new Error('the socket gauge did not come back down');
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  });
});

describe('METRICS=false', () => {
  let app: RunningApp;
  beforeAll(async () => {
    app = await startApp({ STORE: 'memory', METRICS: 'false' });
  });
  afterAll(() => app?.close());

  it('serves no /metrics and measures nothing', async () => {
    expect((await fetch(`${app.url}/metrics`)).status).toBe(404);
    expect(app.composed.app.observeCall).toBeUndefined();
  });
});
