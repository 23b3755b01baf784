import request from 'supertest';
import type { Application } from '../../../src/application/app/application';
import { buildTestApp, startServer, type RunningServer } from './http-test-app';

describe('HTTP adapter: method mapping and params', () => {
  let app: Application;
  let running: RunningServer;

  beforeAll(async () => {
    app = buildTestApp({ multi: true });
    running = await startServer(app);
  });
  afterAll(() => running.close());

  const api = () => request(running.url);

  it('GET without id calls find with params { provider, query, headers, route }', async () => {
    const res = await api().get('/echo?a=1&b[$gt]=2&c[]=x&c[]=y').set('X-Test', 'yes').expect(200);
    expect(res.body).toEqual({
      method: 'find',
      provider: 'rest',
      route: {},
      userAgent: 'yes',
      query: { a: '1', b: { $gt: '2' }, c: ['x', 'y'] },
    });
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  });

  it('GET with id calls get with the decoded id; query stays available', async () => {
    const res = await api().get('/echo/a%20b%2Fc%3F?x=1').expect(200);
    expect(res.body).toMatchObject({ method: 'get', id: 'a b/c?', query: { x: '1' } });
  });

  it('HEAD maps like GET and sends no body', async () => {
    const res = await api().head('/echo/7').expect(200);
    expect(res.text).toBeUndefined();
    expect(Number(res.headers['content-length'])).toBeGreaterThan(0);
  });

  it('POST calls create with an object (201) or an array (multi)', async () => {
    const one = await api().post('/messages').send({ text: 'one' }).expect(201);
    expect(one.body).toMatchObject({ text: 'one' });
    const many = await api()
      .post('/messages')
      .send([{ text: 'a' }, { text: 'b' }])
      .expect(201);
    expect(many.body).toHaveLength(2);
  });

  it('POST with an id segment still calls create (Feathers ignores the id)', async () => {
    const res = await api().post('/echo/5').send({ a: 1 }).expect(201);
    expect(res.body).toMatchObject({ method: 'create', data: { a: 1 } });
  });

  it('PUT / PATCH / DELETE with id call update / patch / remove', async () => {
    expect((await api().put('/echo/1').send({ a: 1 })).body).toMatchObject({
      method: 'update',
      id: '1',
      data: { a: 1 },
    });
    expect((await api().patch('/echo/2').send({ b: 2 })).body).toMatchObject({
      method: 'patch',
      id: '2',
      data: { b: 2 },
    });
    expect((await api().delete('/echo/3')).body).toMatchObject({ method: 'remove', id: '3' });
  });

  it('PUT / PATCH / DELETE without id pass id null and the URL query as params.query', async () => {
    expect((await api().put('/echo?x=1').send({ a: 1 })).body).toMatchObject({
      method: 'update',
      id: null,
      query: { x: '1' },
    });
    expect((await api().patch('/echo?x=2').send({ b: 2 })).body).toMatchObject({
      method: 'patch',
      id: null,
      query: { x: '2' },
    });
    expect((await api().delete('/echo?x=3')).body).toMatchObject({ method: 'remove', id: null, query: { x: '3' } });
  });

  it('multi patch and remove on a memory service affect every match', async () => {
    await api()
      .post('/messages')
      .send([
        { tag: 'm', n: 1 },
        { tag: 'm', n: 2 },
      ])
      .expect(201);
    const patched = await api().patch('/messages?tag=m').send({ seen: true }).expect(200);
    expect(patched.body).toHaveLength(2);
    const removed = await api().delete('/messages?tag=m').expect(200);
    expect(removed.body.map((r: any) => r.seen)).toEqual([true, true]);
  });

  it('route placeholders fill params.route and are percent-decoded', async () => {
    const list = await api().get('/users/12/messages').expect(200);
    expect(list.body).toMatchObject({ method: 'find', route: { userId: '12' } });
    const one = await api().get('/users/o%201/messages/7').expect(200);
    expect(one.body).toMatchObject({ method: 'get', id: '7', route: { userId: 'o 1' } });
  });

  it('a bearer token becomes params.authentication', async () => {
    const res = await api().get('/echo').set('Authorization', 'Bearer abc.def.ghi').expect(200);
    expect(res.body.authentication).toEqual({ strategy: 'jwt', accessToken: 'abc.def.ghi' });
    const none = await api().get('/echo').set('Authorization', 'Basic xyz').expect(200);
    expect(none.body.authentication).toBeUndefined();
  });

  it('custom methods: POST with X-Service-Method calls the listed method with data and params', async () => {
    const res = await api().post('/todos?x=1').set('X-Service-Method', 'markRead').send({ id: 4 }).expect(200);
    expect(res.body).toEqual({ marked: 4, provider: 'rest', query: { x: '1' } });
  });

  it('custom methods returning null answer 204', async () => {
    await api().post('/todos').set('X-Service-Method', 'nothing').send({}).expect(204);
  });

  it.each(['create', 'find', 'setup', 'unknownMethod', 'hasOwnProperty'])(
    'X-Service-Method %s is a 405',
    async (name) => {
      const res = await api().post('/todos').set('X-Service-Method', name).send({}).expect(405);
      expect(res.body).toEqual({
        name: 'MethodNotAllowed',
        code: 405,
        className: 'method-not-allowed',
        message: `Method \`${name}\` is not supported by this endpoint.`,
      });
      expect(res.headers.allow).toBe('GET, HEAD, POST');
    },
  );

  it('an empty X-Service-Method header means a plain create', async () => {
    await api().post('/echo').set('X-Service-Method', '').send({ a: 1 }).expect(201);
  });

  it('X-Service-Method is ignored on other verbs', async () => {
    const res = await api().get('/echo').set('X-Service-Method', 'markRead').expect(200);
    expect(res.body.method).toBe('find');
  });

  it('a verb whose method is not listed is a 405 with Allow', async () => {
    const put = await api().put('/todos/1').send({}).expect(405);
    expect(put.body.message).toBe('Method `update` is not supported by this endpoint.');
    expect(put.headers.allow).toBe('GET, HEAD, POST');
    const post = await api().post('/read-only').send({}).expect(405);
    expect(post.headers.allow).toBe('GET, HEAD');
    const options = await api().options('/messages').expect(405);
    expect(options.body.message).toBe('Method OPTIONS not allowed');
    expect(options.headers.allow).toBe('GET, HEAD, POST, PUT, PATCH, DELETE');
  });

  it('the most specific path wins and is rebuilt after app.use / app.unuse', async () => {
    await api()
      .get('/echo/archive')
      .expect(200)
      .expect((res) => expect(res.body.method).toBe('get'));
    app.use('echo/archive', {
      async find() {
        return { archive: true };
      },
    });
    await api().get('/echo/archive').expect(200, { archive: true });
    await api()
      .get('/echo/other')
      .expect(200)
      .expect((res) => expect(res.body).toMatchObject({ method: 'get', id: 'other' }));
    await app.unuse('echo/archive');
    await api()
      .get('/echo/archive')
      .expect(200)
      .expect((res) => expect(res.body.id).toBe('archive'));
  });

  it('trailing slashes are ignored; empty inner segments, extra segments and other cases are 404', async () => {
    await api()
      .get('/echo/5/')
      .expect(200)
      .expect((res) => expect(res.body.id).toBe('5'));
    await api().get('//echo//5').expect(404);
    await api().get('/echo/1/2').expect(404);
    await api().get('/Echo').expect(404);
  });

  it('invalid percent-encoding in an id or route value is a 400', async () => {
    const res = await api().get('/echo/%E0%A4%A').expect(400);
    expect(res.body).toMatchObject({ name: 'BadRequest', code: 400 });
    await api().get('/users/%ZZ/messages').expect(400);
  });
});
