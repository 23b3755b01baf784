import request from 'supertest';
import { buildTestApp, startServer, type RunningServer } from './http-test-app';

describe('HTTP adapter: request bodies', () => {
  let running: RunningServer;
  let small: RunningServer;

  beforeAll(async () => {
    running = await startServer(buildTestApp());
    small = await startServer(buildTestApp(), { bodyLimit: '1kb' });
  });
  afterAll(async () => {
    await running.close();
    await small.close();
  });

  const post = (server = running) => request(server.url).post('/echo');

  it('parses JSON objects and arrays, also with a +json type and a charset', async () => {
    await post()
      .send({ a: { b: [1, 2] } })
      .expect(201)
      .expect((res) => expect(res.body.data).toEqual({ a: { b: [1, 2] } }));
    await post()
      .send([{ a: 1 }, { a: 2 }])
      .expect(201)
      .expect((res) => expect(res.body.data).toEqual([{ a: 1 }, { a: 2 }]));
    await post()
      .set('Content-Type', 'application/vnd.api+json; charset=utf-8')
      .send('{"x":1}')
      .expect(201)
      .expect((res) => expect(res.body.data).toEqual({ x: 1 }));
  });

  it('parses urlencoded bodies with the query-string rules', async () => {
    const res = await post().type('form').send('a=1&b[c]=2&d[]=x').expect(201);
    expect(res.body.data).toEqual({ a: '1', b: { c: '2' }, d: ['x'] });
    await post().type('form').send('constructor=1').expect(400);
  });

  it('an empty body, or one of another content type, is {} (as in Feathers)', async () => {
    await post()
      .set('Content-Type', 'application/json')
      .expect(201)
      .expect((res) => expect(res.body.data).toEqual({}));
    await post()
      .set('Content-Type', 'text/plain')
      .send('hello')
      .expect(201)
      .expect((res) => expect(res.body.data).toEqual({}));
    await post()
      .expect(201)
      .expect((res) => expect(res.body.data).toEqual({}));
  });

  it.each([
    ['malformed JSON', '{"a":'],
    ['a string', '"str"'],
    ['null', 'null'],
    ['a number', '42'],
  ])('%s is a 400 BadRequest', async (_label, body) => {
    const res = await post().set('Content-Type', 'application/json').send(body).expect(400);
    expect(res.body).toMatchObject({ name: 'BadRequest', code: 400, className: 'bad-request' });
  });

  it('a __proto__ key in a JSON body is refused', async () => {
    await post().set('Content-Type', 'application/json').send('{"a":{"__proto__":{"admin":true}}}').expect(400);
    await post().set('Content-Type', 'application/json').send('{"\\u005f_proto__":{"admin":true}}').expect(400);
  });

  it('bodies over the limit are a 413 PayloadTooLarge (declared length or streamed)', async () => {
    const big = { text: 'x'.repeat(2048) };
    const res = await post(small).send(big).expect(413);
    expect(res.body).toMatchObject({ name: 'PayloadTooLarge', code: 413, className: 'payload-too-large' });
    await post(small).send({ text: 'fits' }).expect(201);
  });

  it('the default limit is 1 MB', async () => {
    await post()
      .send({ text: 'x'.repeat(900 * 1024) })
      .expect(201);
    await post()
      .send({ text: 'x'.repeat(1024 * 1024) })
      .expect(413);
  });

  it('compressed bodies are refused rather than misread', async () => {
    await post().set('Content-Type', 'application/json').set('Content-Encoding', 'gzip').send('{}').expect(400);
  });

  it('DELETE ignores any body; GET never reads one', async () => {
    await request(running.url)
      .delete('/echo/1')
      .send({ a: 1 })
      .expect(200)
      .expect((res) => expect(res.body.data).toBeUndefined());
  });
});
