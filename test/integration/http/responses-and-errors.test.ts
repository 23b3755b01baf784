import request from 'supertest';
import { createApp } from '../../../src/application/app/application';
import type { HookContext } from '../../../src/application/hooks/hook-context';
import { errorClasses } from '../../../src/domain/errors';
import { FEATHERS_ERROR_KEYS, memoryLogger, startServer, type RunningServer } from './http-test-app';

/** A service whose behaviour is chosen by the query: result shape, or an error to throw. */
const behaviours = {
  async find(params: any) {
    const { kind, name } = params.query;
    if (kind === 'error') throw new errorClasses[name]('It failed', { field: 'x' });
    if (kind === 'plain') throw new Error('database password is hunter2');
    if (kind === 'type') throw new TypeError('cannot read x of undefined');
    if (kind === 'status-error') throw Object.assign(new Error('conflict?'), { status: 409, code: 409 });
    if (kind === 'null') return null;
    if (kind === 'zero') return 0;
    if (kind === 'false') return false;
    if (kind === 'empty') return [];
    if (kind === 'circular') {
      const a: any = {};
      a.self = a;
      return a;
    }
    return { ok: true };
  },
  async create(data: any) {
    return data.returnNull ? null : { ...data, id: 1 };
  },
  async remove(id: string) {
    return { id };
  },
};

describe('HTTP adapter: status codes, hook-controlled responses and errors', () => {
  const logger = memoryLogger();
  let dev: RunningServer;
  let prod: RunningServer;

  beforeAll(async () => {
    const app = createApp();
    app.use('things', behaviours);
    app.use('hooked', behaviours);
    app.service('hooked').hooks({
      after: {
        find: [
          (context: HookContext) => {
            const { mode } = context.params.query ?? {};
            context.http!.headers = { 'X-Foo': 'bar', 'X-Multi': ['second', 'third'] };
            if (mode === 'accepted') context.http!.status = 202;
            if (mode === 'redirect') context.http!.location = '/somewhere else?x=%20';
            if (mode === 'dispatch') context.dispatch = { safe: true };
          },
        ],
      },
    });
    dev = await startServer(app, { logger });
    prod = await startServer(app, { logger, production: true });
  });
  afterAll(async () => {
    await dev.close();
    await prod.close();
  });

  it('201 for create, 200 otherwise, 204 for null / undefined', async () => {
    await request(dev.url).post('/things').send({ a: 1 }).expect(201, { a: 1, id: 1 });
    await request(dev.url).post('/things').send({ returnNull: true }).expect(204, '');
    await request(dev.url).get('/things').expect(200, { ok: true });
    await request(dev.url).get('/things?kind=null').expect(204, '');
    await request(dev.url).delete('/things/3').expect(200, { id: '3' });
  });

  it('falsy but present results are JSON with 200 (not 204 as in Feathers)', async () => {
    expect((await request(dev.url).get('/things?kind=zero').expect(200)).text).toBe('0');
    expect((await request(dev.url).get('/things?kind=false').expect(200)).text).toBe('false');
    await request(dev.url).get('/things?kind=empty').expect(200, []);
  });

  it('hooks set the status, headers (multi-value too) and a 303 location', async () => {
    const accepted = await request(dev.url).get('/hooked?mode=accepted').expect(202, { ok: true });
    expect(accepted.headers['x-foo']).toBe('bar');
    expect(accepted.headers['x-multi']).toBe('second, third');
    const redirect = await request(dev.url).get('/hooked?mode=redirect').redirects(0).expect(303);
    expect(redirect.headers.location).toBe('/somewhere%20else?x=%20');
  });

  it('context.dispatch is sent instead of the result', async () => {
    await request(dev.url).get('/hooked?mode=dispatch').expect(200, { safe: true });
  });

  it('responses are JSON whatever Accept says', async () => {
    const res = await request(dev.url).get('/things').set('Accept', 'text/html').expect(200, { ok: true });
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const xml = await request(dev.url).get('/nowhere').set('Accept', 'application/xml').expect(404);
    expect(xml.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers.etag).toBeUndefined();
  });

  it.each(Object.keys(errorClasses))('a thrown %s keeps its status and the Feathers error shape', async (name) => {
    const cls = errorClasses[name];
    const expected = new cls('It failed', { field: 'x' });
    const res = await request(dev.url).get(`/things?kind=error&name=${name}`).expect(expected.code);
    expect(res.body).toEqual({
      name,
      message: 'It failed',
      code: expected.code,
      className: expected.className,
      data: { field: 'x' },
    });
    expect(res.text).not.toContain('stack');
  });

  it('unknown errors are a 500 GeneralError without a stack (message kept in development)', async () => {
    const res = await request(dev.url).get('/things?kind=type').expect(500);
    expect(res.body).toEqual({
      name: 'GeneralError',
      message: 'cannot read x of undefined',
      code: 500,
      className: 'general-error',
    });
    expect(res.text).not.toMatch(/at .*\.ts/);
  });

  it('a non-service error with its own status is still a 500', async () => {
    const res = await request(dev.url).get('/things?kind=status-error').expect(500);
    expect(res.body.name).toBe('GeneralError');
  });

  it('in production the message is generic and the request id is logged with the error', async () => {
    const res = await request(prod.url).get('/things?kind=plain').expect(500);
    expect(Object.keys(res.body)).toEqual(FEATHERS_ERROR_KEYS);
    expect(res.body.message).toBe('Internal server error');
    expect(res.text).not.toContain('hunter2');
    const requestId = res.headers['x-request-id'];
    const line = logger.lines.find((entry) => entry.obj.requestId === requestId);
    expect(line).toMatchObject({ level: 'error', obj: { status: 500, error: 'GeneralError' } });
    expect(line!.obj.err).toBeInstanceOf(Error);
    expect(line!.obj.err.message).toContain('hunter2');
  });

  it('a result that cannot be serialized is a clean 500', async () => {
    const res = await request(prod.url).get('/things?kind=circular').expect(500);
    expect(res.body).toEqual({
      name: 'GeneralError',
      message: 'Internal server error',
      code: 500,
      className: 'general-error',
    });
  });

  it('service errors keep their message in production', async () => {
    const res = await request(prod.url).get('/things?kind=error&name=Conflict').expect(409);
    expect(res.body.message).toBe('It failed');
  });

  it('an unknown path is a JSON 404 NotFound', async () => {
    const res = await request(dev.url).get('/nothing-here').expect(404);
    expect(res.body).toEqual({
      name: 'NotFound',
      message: 'Page not found',
      code: 404,
      className: 'not-found',
      data: { url: '/nothing-here' },
    });
  });
});
