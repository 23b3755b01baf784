import request from 'supertest';
import { buildTestApp, startServer, type RunningServer } from './http-test-app';

/**
 * The request sequence a Feathers v5 client sends (feathers-wire-contract.md section 1), with the
 * statuses and bodies a Feathers server answers, except where DESIGN.md section 5 decides otherwise.
 */
describe('HTTP adapter: Feathers v5 wire compatibility', () => {
  let running: RunningServer;

  beforeAll(async () => {
    running = await startServer(buildTestApp());
  });
  afterAll(() => running.close());

  const api = () => request(running.url);

  it('runs the CRUD sequence with Feathers statuses and bodies', async () => {
    const created = await api()
      .post('/messages')
      .set('Accept', 'application/json')
      .send({ text: 'hello', n: 2 })
      .expect(201);
    expect(created.body).toEqual({ text: 'hello', n: 2, id: expect.anything() });
    const id = created.body.id;
    await api().post('/messages').send({ text: 'second', n: 1 }).expect(201);

    const page = await api().get('/messages').expect(200);
    expect(Object.keys(page.body)).toEqual(['total', 'limit', 'skip', 'data']);
    expect(page.body).toMatchObject({ total: 2, limit: 10, skip: 0 });

    const sorted = await api().get('/messages?$sort[n]=1&$select[]=text').expect(200);
    expect(sorted.body.data.map((m: any) => m.text)).toEqual(['second', 'hello']);
    expect(sorted.body.data[0].n).toBeUndefined();

    const capped = await api().get('/messages?$limit=100').expect(200);
    expect(capped.body.limit).toBe(50);
    const countOnly = await api().get('/messages?$limit=0').expect(200);
    expect(countOnly.body).toEqual({ total: 2, limit: 0, skip: 0, data: [] });

    // URL values are strings: ?n=2 does not match the number 2.
    expect((await api().get('/messages?n=2').expect(200)).body.total).toBe(0);
    expect((await api().get('/messages?text[$in][0]=hello').expect(200)).body.total).toBe(1);

    await api().get(`/messages/${id}`).expect(200, { text: 'hello', n: 2, id });
    await api().patch(`/messages/${id}`).send({ read: true }).expect(200, { text: 'hello', n: 2, id, read: true });
    await api().put(`/messages/${id}`).send({ text: 'replaced' }).expect(200, { text: 'replaced', id });
    await api().delete(`/messages/${id}`).expect(200, { text: 'replaced', id });
    const missing = await api().get(`/messages/${id}`).expect(404);
    expect(missing.body).toMatchObject({ name: 'NotFound', code: 404, className: 'not-found' });
  });

  it('refuses multi operations like a Feathers adapter without multi', async () => {
    const create = await api()
      .post('/messages')
      .send([{ a: 1 }])
      .expect(405);
    expect(create.body).toEqual({
      name: 'MethodNotAllowed',
      message: 'Can not create multiple entries',
      code: 405,
      className: 'method-not-allowed',
    });
    expect((await api().patch('/messages?a=1').send({ b: 1 }).expect(405)).body.message).toBe(
      'Can not patch multiple entries',
    );
    expect((await api().delete('/messages?a=1').expect(405)).body.message).toBe('Can not remove multiple entries');
    const put = await api().put('/messages').send({ a: 1 }).expect(400);
    expect(put.body.message).toBe("You can not replace multiple instances. Did you mean 'patch'?");
  });

  it('answers unlisted methods with the Feathers 405 body, plus an Allow header', async () => {
    const res = await api().post('/read-only').send({}).expect(405);
    expect(res.body).toEqual({
      name: 'MethodNotAllowed',
      message: 'Method `create` is not supported by this endpoint.',
      code: 405,
      className: 'method-not-allowed',
    });
    expect(res.headers.allow).toBe('GET, HEAD');
    const item = await api().patch('/read-only/1').send({}).expect(405);
    expect(item.headers.allow).toBe('GET, HEAD');
  });

  it('calls custom methods with 200 (never 201)', async () => {
    await api()
      .post('/todos')
      .set('X-Service-Method', 'markRead')
      .send({ id: 1 })
      .expect(200, { marked: 1, provider: 'rest', query: {} });
  });

  it('answers unknown paths with the Feathers 404 body', async () => {
    await api()
      .get('/nothing-here')
      .expect(404, {
        name: 'NotFound',
        message: 'Page not found',
        code: 404,
        className: 'not-found',
        data: { url: '/nothing-here' },
      });
  });

  it('differs from Feathers where DESIGN.md section 5 says so', async () => {
    await api().post('/messages').set('Content-Type', 'application/json').send('{bad').expect(400);
    await api().post('/messages').set('Content-Type', 'application/json').send('"str"').expect(400);
    await api().get('/messages').set('Accept', 'text/html').expect(200);
    await api().get('/messages?$limit=abc').expect(400);
    await api()
      .get('/echo/a%20b')
      .expect(200)
      .expect((res) => expect(res.body.id).toBe('a b'));
  });
});
