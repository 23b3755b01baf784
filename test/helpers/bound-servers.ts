import { listenHttp, type ListeningHttpServer } from '../../src';
import { composeApplication, type ComposedApplication } from '../../src/composition-root';
import { loadConfig } from '../../src/composition/load-config';
import { databaseUrl, startMongoTestServer, type MongoTestServer } from './mongo-test-server';

export const PASSWORD = 'correct horse battery';
export const SECRET_A = 'server-a-secret-that-is-long-enough-000000';
export const SECRET_B = 'server-b-secret-that-is-long-enough-111111';

export interface Running {
  composed: ComposedApplication;
  http: ListeningHttpServer;
  url: string;
}

/**
 * Servers of one test file that share one database (registers its `beforeAll`/`afterAll`): a user
 * signed up on B exists on A, as a remote binding needs, since A acts only for its own users.
 */
export function serversOnOneDatabase(): {
  start(env: Record<string, string>, options?: Parameters<typeof composeApplication>[1]): Promise<Running>;
} {
  let mongo: MongoTestServer | undefined;
  let url: string;
  beforeAll(async () => {
    mongo = await startMongoTestServer();
    url = databaseUrl(mongo.url, mongo.db().databaseName);
  });
  afterAll(() => mongo?.close());
  return {
    async start(env, options = {}) {
      const config = loadConfig({
        NODE_ENV: 'test',
        STORE: 'mongo',
        MONGODB_URL: url,
        DATA_DIR: ':memory:',
        PASSWORD_HASH_COST: '10',
        ...env,
      });
      const composed = await composeApplication(config, { authentication: { rateLimit: false }, ...options });
      const http = await listenHttp(composed.http, { host: '127.0.0.1', port: 0 });
      return { composed, http, url: http.url };
    },
  };
}

export async function stop(running: Running | undefined): Promise<void> {
  if (!running) return;
  await running.http.close();
  await running.composed.close();
}

export async function call(
  url: string,
  method: string,
  path: string,
  init: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
) {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: {
      'content-type': 'application/json',
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
      ...init.headers,
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null, text };
}

/** Signs up and logs in: the user's id and access token. */
export async function account(url: string, email: string): Promise<{ id: string; token: string }> {
  const created = await call(url, 'POST', '/users', { body: { email, password: PASSWORD } });
  expect(created.status).toBe(201);
  const login = await call(url, 'POST', '/authentication', { body: { strategy: 'local', email, password: PASSWORD } });
  expect(login.status).toBe(201);
  return { id: created.body._id, token: login.body.accessToken };
}
