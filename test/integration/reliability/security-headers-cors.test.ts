import { signUpAndLogIn, type Account } from '../../helpers/accounts';
import { startApp, type RunningApp } from '../../helpers/app-server';
import { call } from '../../helpers/http';

/**
 * JSON answers carry the API's security headers, HTML pages helmet's full set; CORS only for the
 * origins in CORS_ORIGINS.
 */
describe('security: headers and CORS', () => {
  const ALLOWED = 'https://app.example.com';
  let app: RunningApp;
  let closed: RunningApp;
  let alice: Account;

  beforeAll(async () => {
    app = await startApp({ STORE: 'memory', CORS_ORIGINS: `${ALLOWED}, https://admin.example.com` });
    closed = await startApp({ STORE: 'memory' });
    alice = await signUpAndLogIn(app.url);
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await closed?.close();
  });

  /** OWASP's REST set: what a JSON answer needs. */
  const API_HEADERS: Record<string, RegExp> = {
    'cache-control': /^no-store$/,
    'content-security-policy': /^frame-ancestors 'none'$/,
    'strict-transport-security': /^max-age=\d+; includeSubDomains$/,
    'x-content-type-options': /^nosniff$/,
    'x-frame-options': /^DENY$/,
  };
  /** Helmet's defaults that only mean something to a page a browser renders. */
  const PAGE_ONLY_HEADERS = [
    'cross-origin-opener-policy',
    'cross-origin-resource-policy',
    'origin-agent-cluster',
    'referrer-policy',
    'x-dns-prefetch-control',
    'x-download-options',
    'x-permitted-cross-domain-policies',
    'x-xss-protection',
  ];
  const HELMET_DEFAULTS: Record<string, RegExp> = {
    'content-security-policy': /default-src 'self'/,
    'cross-origin-opener-policy': /^same-origin$/,
    'cross-origin-resource-policy': /^same-origin$/,
    'origin-agent-cluster': /^\?1$/,
    'referrer-policy': /^no-referrer$/,
    'strict-transport-security': /max-age=\d+/,
    'x-content-type-options': /^nosniff$/,
    'x-dns-prefetch-control': /^off$/,
    'x-download-options': /^noopen$/,
    'x-frame-options': /^SAMEORIGIN$/,
    'x-permitted-cross-domain-policies': /^none$/,
    'x-xss-protection': /^0$/,
  };

  it.each([
    ['a success', 'GET', '/messages', true, 200],
    ['a created record', 'POST', '/messages', true, 201],
    ['a 401', 'GET', '/messages', false, 401],
    ['a 404 of an unknown path (through the Express app)', 'GET', '/nowhere', false, 404],
    ['a 400', 'GET', '/messages?$where=1', true, 400],
    ['the health check', 'GET', '/health', false, 200],
  ] as const)(
    "%s (JSON) carries the API set, nothing of the pages' set, and no X-Powered-By",
    async (_label, method, pathname, withToken, status) => {
      const body = method === 'POST' ? { text: 'headers' } : undefined;
      const response = await call(app.url, method, pathname, { token: withToken ? alice.token : undefined, body });
      expect(response.status).toBe(status);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      for (const [name, pattern] of Object.entries(API_HEADERS))
        expect([name, response.headers.get(name)]).toEqual([name, expect.stringMatching(pattern)]);
      for (const name of PAGE_ONLY_HEADERS) expect([name, response.headers.get(name)]).toEqual([name, null]);
      expect(response.headers.get('x-request-id')).toMatch(/\S/);
      expect(response.headers.get('x-powered-by')).toBeNull();
    },
  );

  it("the docs page (HTML) carries helmet's full set", async () => {
    const response = await fetch(`${app.url}/docs`);
    await response.text();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    for (const [name, pattern] of Object.entries(HELMET_DEFAULTS))
      expect([name, response.headers.get(name)]).toEqual([name, expect.stringMatching(pattern)]);
    expect(response.headers.get('x-powered-by')).toBeNull();
  });

  it('answers an allowed origin with its CORS headers, on successes and errors', async () => {
    for (const token of [alice.token, undefined]) {
      const response = await call(app.url, 'GET', '/messages', { token, headers: { origin: ALLOWED } });
      expect(response.headers.get('access-control-allow-origin')).toBe(ALLOWED);
      expect(response.headers.get('vary')).toMatch(/Origin/);
    }
  });

  it('gives nothing to an origin not in the list, nor to a look-alike', async () => {
    for (const origin of [
      'https://evil.example.com',
      'https://app.example.com.evil.com',
      'http://app.example.com',
      'null',
    ]) {
      const response = await call(app.url, 'GET', '/messages', { token: alice.token, headers: { origin } });
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
      expect(response.headers.get('access-control-allow-credentials')).toBeNull();
    }
  });

  it('answers a preflight of an allowed origin with 204 and the allowed methods and headers', async () => {
    const headers = {
      origin: ALLOWED,
      'access-control-request-method': 'PATCH',
      'access-control-request-headers': 'authorization, content-type',
    };
    const response = await call(app.url, 'OPTIONS', '/messages/1', { headers });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect(response.headers.get('access-control-allow-methods')).toMatch(/PATCH/);
    expect(response.headers.get('access-control-allow-headers')).toMatch(/Authorization/i);
  });

  it('refuses the preflight of another origin (no CORS headers)', async () => {
    const response = await call(app.url, 'OPTIONS', '/messages', {
      headers: { origin: 'https://evil.example.com', 'access-control-request-method': 'DELETE' },
    });
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    expect(response.status).toBeGreaterThanOrEqual(400);
  });

  it('sends no CORS headers at all when CORS_ORIGINS is unset', async () => {
    const response = await call(closed.url, 'GET', '/health', { headers: { origin: ALLOWED } });
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await call(closed.url, 'OPTIONS', '/messages', {
      headers: { origin: ALLOWED, 'access-control-request-method': 'GET' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
  });
});
