import express from 'express';
import request from 'supertest';
import { createHttpAdapter, type TrustProxy } from '../../../src/adapters/http';
import { MemoryService } from '../../../src/adapters/memory';
import { createApp } from '../../../src/application/app/application';
import type { Params } from '../../../src/ports/service-params';

/** Answers with the client address the adapter passed in `params.ip`. */
const whoAmI = {
  async find(params: Params = {}) {
    return { ip: params.ip };
  },
};

function givenApp() {
  const app = createApp();
  app.use('whoami', whoAmI);
  app.use('messages', new MemoryService({ paginate: { default: 10, max: 50 } }));
  return app;
}

describe('service routes answered on the Node request, before any Express dispatch', () => {
  it('gives the socket address without a trusted proxy, and ignores X-Forwarded-For', async () => {
    const response = await request(createHttpAdapter(givenApp())).get('/whoami').set('x-forwarded-for', '203.0.113.7');
    expect(response.body.ip).toMatch(/127\.0\.0\.1$/);
  });

  it('honours trustProxy exactly as Express computes req.ip', async () => {
    const response = await request(createHttpAdapter(givenApp(), { trustProxy: true }))
      .get('/whoami')
      .set('x-forwarded-for', '203.0.113.7');
    expect(response.body.ip).toBe('203.0.113.7');
  });

  it.each<[string, TrustProxy, string]>([
    ['true', true, '198.51.100.1, 203.0.113.7'],
    ['a hop count', 1, '198.51.100.1, 203.0.113.7'],
    ['two hops', 2, '198.51.100.1, 203.0.113.7, 192.0.2.9'],
    ['a preset', 'loopback', '198.51.100.1, 203.0.113.7'],
    ['a comma-separated list', 'loopback, 203.0.113.0/24', '198.51.100.1, 203.0.113.7'],
    ['an array', ['127.0.0.1', '::ffff:127.0.0.1', '::1'], '198.51.100.1, 203.0.113.7'],
    ['false', false, '198.51.100.1'],
  ])(
    'trustProxy as %s gives the address Express gives as req.ip for the same setting',
    async (_label, trustProxy, forwardedFor) => {
      const reference = express();
      reference.set('trust proxy', trustProxy);
      reference.get('/whoami', (req, res) => {
        res.json({ ip: req.ip });
      });
      const expected = (await request(reference).get('/whoami').set('x-forwarded-for', forwardedFor)).body.ip;
      const response = await request(createHttpAdapter(givenApp(), { trustProxy }))
        .get('/whoami')
        .set('x-forwarded-for', forwardedFor);
      expect(response.body.ip).toBe(expected);
    },
  );

  it('mounted without its own trustProxy, takes req.ip of the Express app it is mounted in', async () => {
    const outer = express();
    outer.set('trust proxy', true);
    outer.use(createHttpAdapter(givenApp()));
    const response = await request(outer).get('/whoami').set('x-forwarded-for', '203.0.113.7');
    expect(response.body.ip).toBe('203.0.113.7');
  });

  it('works mounted inside another Express app, which keeps its own routes', async () => {
    const outer = express();
    outer.get('/api/ping', (_req, res) => {
      res.json({ pong: true });
    });
    outer.use('/api', createHttpAdapter(givenApp()));
    const agent = request(outer);
    expect((await agent.get('/api/ping')).body).toEqual({ pong: true });
    expect((await agent.post('/api/messages').send({ text: 'hi' })).status).toBe(201);
    expect((await agent.get('/api/messages')).body).toMatchObject({ total: 1, data: [{ text: 'hi' }] });
  });

  it('sends other paths through Express to the same JSON 404, with the same headers', async () => {
    const agent = request(createHttpAdapter(givenApp()));
    const service = await agent.get('/messages');
    const missing = await agent.get('/nope');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ name: 'NotFound', code: 404 });
    for (const header of ['x-content-type-options', 'x-request-id', 'content-security-policy']) {
      expect(service.headers[header]).toBeDefined();
      expect(missing.headers[header]).toBeDefined();
    }
  });
});

describe('the query is validated once per call, and never skipped', () => {
  it('re-validates a query changed after the public method checked it', async () => {
    const service = new MemoryService();
    const query = service.sanitizeQuery({ query: { name: 'a' } });
    (query as Record<string, unknown>).$where = 'sleep(1000)';
    await expect(service._find({ query })).rejects.toMatchObject({ name: 'BadRequest' });
  });

  it('validates direct hook-less calls in full', async () => {
    const service = new MemoryService();
    await expect(service._find({ query: { name: { $where: '1' } } })).rejects.toMatchObject({ name: 'BadRequest' });
    await expect(service._get(1, { query: { $limit: -1 } })).rejects.toMatchObject({ name: 'BadRequest' });
  });
});
