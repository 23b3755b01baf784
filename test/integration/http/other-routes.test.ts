import request from 'supertest';
import { createHttpAdapter, listenHttp } from '../../../src/adapters/http';
import { MemoryService } from '../../../src/adapters/memory';
import { createApp } from '../../../src/application/app/application';

function givenAdapter(options: Parameters<typeof createHttpAdapter>[1] = {}) {
  const app = createApp();
  app.use('messages', new MemoryService());
  return createHttpAdapter(app, options);
}

/** `adapter.express`: the Express app for the application's routes that are not services. */
describe('HTTP adapter: other routes on adapter.express', () => {
  it('serves routes added after the adapter was created, before the JSON 404', async () => {
    const adapter = givenAdapter();
    adapter.express.get('/docs', (_req, res) => {
      res.type('text/plain').send('the docs');
    });
    const agent = request(adapter);
    const docs = await agent.get('/docs');
    expect(docs.status).toBe(200);
    expect(docs.text).toBe('the docs');
    expect(docs.headers['x-content-type-options']).toBe('nosniff');
    expect(docs.headers['x-powered-by']).toBeUndefined();
    expect((await agent.get('/docs/more')).body).toMatchObject({ name: 'NotFound', code: 404 });
    expect((await agent.post('/messages').send({ text: 'hi' })).status).toBe(201);
  });

  it('answers errors passed to next in the JSON error shape, without a stack', async () => {
    const adapter = givenAdapter({ production: true });
    adapter.express.get('/broken', () => {
      throw new Error('secret internals');
    });
    const response = await request(adapter).get('/broken');
    expect(response.status).toBe(500);
    expect(response.body).toEqual({
      name: 'GeneralError',
      message: 'Internal server error',
      code: 500,
      className: 'general-error',
    });
  });

  it('sends CORS headers on these routes and answers their preflights', async () => {
    const adapter = givenAdapter({ cors: { origins: ['https://app.example.com'] } });
    adapter.express.get('/docs', (_req, res) => {
      res.send('ok');
    });
    const agent = request(adapter);
    const docs = await agent.get('/docs').set('origin', 'https://app.example.com');
    expect(docs.headers['access-control-allow-origin']).toBe('https://app.example.com');
    const preflight = await agent
      .options('/docs')
      .set('origin', 'https://app.example.com')
      .set('access-control-request-method', 'GET');
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-methods']).toContain('GET');
  });

  it('a path that does not decode is a 400, as on service paths', async () => {
    const response = await request(givenAdapter()).get('/%E0%A4%A');
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ name: 'BadRequest' });
  });
});

describe('listenHttp', () => {
  it('listens on a free loopback port, exposes the node server, and closes gracefully', async () => {
    const http = await listenHttp(givenAdapter());
    expect(http.url).toBe(`http://127.0.0.1:${http.port}`);
    expect(http.server.listening).toBe(true);
    const response = await fetch(`${http.url}/messages`);
    expect(response.status).toBe(200);
    await http.close();
    expect(http.server.listening).toBe(false);
    await expect(fetch(`${http.url}/messages`)).rejects.toThrow();
  });
});
