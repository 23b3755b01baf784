import 'reflect-metadata';
import { listenHttp, type ListeningHttpServer } from '../../../src/adapters/http';
import { composeApplication, type ComposedApplication } from '../../../src/composition-root';
import { loadConfig } from '../../../src/composition/load-config';

const PASSWORD = 'correct horse battery';
const SECRET_A = 'server-a-secret-that-is-long-enough-000000';
const SECRET_B = 'server-b-secret-that-is-long-enough-111111';

interface Running {
  composed: ComposedApplication;
  server: ListeningHttpServer;
  url: string;
}

async function start(env: Record<string, string>): Promise<Running> {
  const config = loadConfig({ NODE_ENV: 'test', STORE: 'memory', DATA_DIR: ':memory:', BCRYPT_COST: '4', ...env });
  const composed = await composeApplication(config);
  const server = await listenHttp(composed.http);
  return { composed, server, url: server.url };
}

async function stop(running: Running | undefined): Promise<void> {
  if (!running) return;
  await running.server.close();
  await running.composed.close();
}

async function call(url: string, init: { method?: string; token?: string; body?: unknown; headers?: Record<string, string> } = {}) {
  const response = await fetch(url, {
    method: init.method ?? 'GET',
    headers: { 'content-type': 'application/json', ...(init.token ? { authorization: `Bearer ${init.token}` } : {}), ...init.headers },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    signal: AbortSignal.timeout(10_000),
  });
  return { status: response.status, body: response.status === 204 ? null : await response.json() };
}

async function signUpAndLogIn(url: string, email: string): Promise<string> {
  expect((await call(`${url}/users`, { method: 'POST', body: { email, password: PASSWORD } })).status).toBe(201);
  const login = await call(`${url}/authentication`, { method: 'POST', body: { strategy: 'local', email, password: PASSWORD } });
  expect(login.status).toBe(201);
  return login.body.accessToken;
}

describe('binding a service to another server by configuration (MESSAGES_REMOTE_URL)', () => {
  let serverA: Running | undefined;
  let serverB: Running | undefined;
  let tokenOnA: string;
  let tokenOnB: string;

  beforeAll(async () => {
    serverA = await start({ AUTH_SECRET: SECRET_A });
    tokenOnA = await signUpAndLogIn(serverA.url, 'service-b@example.com');
    serverB = await start({ AUTH_SECRET: SECRET_B, MESSAGES_REMOTE_URL: serverA.url, MESSAGES_REMOTE_TOKEN: tokenOnA });
    tokenOnB = await signUpAndLogIn(serverB.url, 'reader@example.com');
  });

  afterAll(async () => {
    await stop(serverB);
    await stop(serverA);
  });

  it('a client of B sees the messages stored on A', async () => {
    const created = await call(`${serverA!.url}/messages`, { method: 'POST', token: tokenOnA, body: { text: 'stored on A' } });
    expect(created.status).toBe(201);
    const page = await call(`${serverB!.url}/messages?text=stored%20on%20A`, { token: tokenOnB });
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ total: 1, data: [{ text: 'stored on A', _id: created.body._id }] });
    const one = await call(`${serverB!.url}/messages/${created.body._id}`, { token: tokenOnB });
    expect(one.body).toMatchObject({ text: 'stored on A' });
  });

  it('writes through B land on A, custom methods included', async () => {
    const created = await call(`${serverB!.url}/messages`, { method: 'POST', token: tokenOnB, body: { text: 'written through B' } });
    expect(created.status).toBe(201);
    const onA = await call(`${serverA!.url}/messages/${created.body._id}`, { token: tokenOnA });
    expect(onA.body).toMatchObject({ text: 'written through B', read: false });
    const marked = await call(`${serverB!.url}/messages`, { method: 'POST', token: tokenOnB, headers: { 'x-service-method': 'markRead' }, body: { id: String(created.body._id) } });
    expect(marked.status).toBe(200);
    expect((await call(`${serverA!.url}/messages/${created.body._id}`, { token: tokenOnA })).body.read).toBe(true);
  });

  it("keeps B's own hooks: validation and authentication still apply on B", async () => {
    expect((await call(`${serverB!.url}/messages`, { method: 'POST', token: tokenOnB, body: { text: 42 } })).status).toBe(400);
    expect((await call(`${serverB!.url}/messages`)).status).toBe(401);
  });

  it("revives A's errors on B (a missing message is 404 through B)", async () => {
    const missing = await call(`${serverB!.url}/messages/999999`, { token: tokenOnB });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ name: 'NotFound', code: 404 });
  });

  it('users stay local to B (only messages are remote)', async () => {
    const usersOnB = await call(`${serverB!.url}/users`, { token: tokenOnB });
    expect(usersOnB.body.data.map((user: { email: string }) => user.email)).toEqual(['reader@example.com']);
  });
});
