import { readFileSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { createHttpAdapter } from '../../../../src/adapters/http';
import { createApp } from '../../../../src/application/app/application';

const swaggerUi = path.dirname(require.resolve('swagger-ui-dist/package.json'));

describe('the apiDocs option of the HTTP adapter', () => {
  it('serializes the document once, when the adapter is made', async () => {
    const document = { openapi: '3.1.0', info: { title: 'first', version: '1' }, paths: {} };
    const http = createHttpAdapter(createApp(), { apiDocs: { document, page: false } });
    document.info.title = 'changed afterwards';
    const response = await request(http)
      .get('/openapi.json')
      .expect(200)
      .expect('content-type', /^application\/json/);
    expect(response.body.info.title).toBe('first');
    await request(http).head('/openapi.json').expect(200);
  });

  it('with page: false serves the document alone', async () => {
    const http = createHttpAdapter(createApp(), { apiDocs: { document: {}, page: false } });
    for (const url of ['/docs', '/docs/init.js', '/docs/swagger-ui.css']) {
      const response = await request(http).get(url);
      expect([url, response.status, response.body.name]).toEqual([url, 404, 'NotFound']);
    }
  });

  it(
    'with page: true serves the page, its script file and ' +
      "swagger-ui-dist's own files, nothing else from that folder",
    async () => {
      const http = createHttpAdapter(createApp(), { apiDocs: { document: {}, page: true } });
      const page = await request(http)
        .get('/docs')
        .expect(200)
        .expect('content-type', /^text\/html/);
      expect(page.text).not.toMatch(/<script>|<script [^>]*>[^<]/);
      const sources = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]);
      expect(sources).toEqual(
        expect.arrayContaining(['/docs/swagger-ui-bundle.js', '/docs/init.js', '/docs/swagger-ui.css']),
      );
      for (const source of sources) await request(http).get(source).expect(200);
      const css = await request(http)
        .get('/docs/swagger-ui.css')
        .expect('content-type', /^text\/css/);
      expect(css.text).toBe(readFileSync(path.join(swaggerUi, 'swagger-ui.css'), 'utf8'));
      expect(css.headers['content-security-policy']).toContain("script-src 'self'");
      for (const url of [
        '/docs/index.html',
        '/docs/swagger-initializer.js',
        '/docs/package.json',
        '/docs/..%2fpackage.json',
        '/docs/oauth2-redirect.html',
      ]) {
        expect([url, (await request(http).get(url)).status]).toEqual([url, 404]);
      }
    },
  );

  it('sends upgrade-insecure-requests only to a request that came over HTTPS', async () => {
    const directivesOf = (response: request.Response) =>
      String(response.headers['content-security-policy'])
        .split(';')
        .map((directive) => directive.trim().split(/\s+/)[0]);
    const direct = createHttpAdapter(createApp(), { apiDocs: { document: {}, page: true } });
    for (const url of ['/docs', '/docs/init.js', '/docs/swagger-ui.css', '/openapi.json']) {
      const plain = directivesOf(await request(direct).get(url).expect(200));
      expect([url, plain.includes('script-src'), plain.includes('upgrade-insecure-requests')]).toEqual([
        url,
        true,
        false,
      ]);
      // A forwarded protocol counts only from a trusted proxy.
      const forged = directivesOf(await request(direct).get(url).set('x-forwarded-proto', 'https').expect(200));
      expect([url, forged.includes('upgrade-insecure-requests')]).toEqual([url, false]);
    }
    const behindProxy = createHttpAdapter(createApp(), {
      apiDocs: { document: {}, page: true },
      trustProxy: 'loopback',
    });
    behindProxy.express.get('/page', (_req, res) => void res.send('a page'));
    for (const url of ['/docs', '/docs/swagger-ui.css', '/page']) {
      const forwarded = directivesOf(await request(behindProxy).get(url).set('x-forwarded-proto', 'https').expect(200));
      expect([url, forwarded.includes('upgrade-insecure-requests')]).toEqual([url, true]);
      expect([
        url,
        directivesOf(await request(behindProxy).get(url).set('x-forwarded-proto', 'http').expect(200)).includes(
          'upgrade-insecure-requests',
        ),
      ]).toEqual([url, false]);
    }
  });

  it('leaves the routes off when the option is absent', async () => {
    const http = createHttpAdapter(createApp());
    await request(http).get('/openapi.json').expect(404);
    await request(http).get('/docs').expect(404);
  });
});
