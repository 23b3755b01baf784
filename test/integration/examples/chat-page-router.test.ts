import request from 'supertest';
import { composeApplication, type ComposedApplication } from '../../../src/composition-root';
import { loadConfig } from '../../../src/composition/load-config';

const PAGE_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; connect-src 'self'; " +
  "img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

/** The demo chat page as the composition mounts it on the HTTP adapter's Express app. */
describe('the chat page on the composed HTTP adapter', () => {
  let composed: ComposedApplication;

  beforeAll(async () => {
    const config = loadConfig({
      NODE_ENV: 'test',
      STORE: 'memory',
      DATA_DIR: ':memory:',
      AUTH_SECRET: 'a-test-secret-that-is-long-enough-0123456789',
      LOG_LEVEL: 'silent',
    });
    composed = await composeApplication(config, { authentication: { passwordHashCost: 10 } });
  });
  afterAll(() => composed?.close());

  it.each(['/', '/index.html'])(
    "GET %s is the page, with its own policy instead of the other pages' one",
    async (path) => {
      const response = await request(composed.http).get(path).expect(200);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.headers['content-security-policy']).toBe(PAGE_POLICY);
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['referrer-policy']).toBe('no-referrer');
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.text).toContain('<script src="/chat/chat.js"></script>');
    },
  );

  it("HEAD / has the page's headers and no body", async () => {
    const page = await request(composed.http).get('/');
    const head = await request(composed.http).head('/').expect(200);
    expect(head.headers['content-security-policy']).toBe(PAGE_POLICY);
    expect(head.headers['content-length']).toBe(page.headers['content-length']);
    expect(head.text).toBeUndefined();
  });

  it('serves the script bundled from the TypeScript sources, under the same policy', async () => {
    const response = await request(composed.http).get('/chat/chat.js').expect(200);
    expect(response.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(response.headers['content-security-policy']).toBe(PAGE_POLICY);
    expect(response.text).toContain('localStorage');
  }, 30_000);

  it('leaves every other request to the JSON 404', async () => {
    for (const [method, path] of [
      ['post', '/'],
      ['get', '/INDEX.HTML'],
      ['get', '/chat/other.js'],
    ] as const) {
      const response = await request(composed.http)[method](path);
      expect([method, path, response.status, response.body.name]).toEqual([method, path, 404, 'NotFound']);
    }
  });
});
