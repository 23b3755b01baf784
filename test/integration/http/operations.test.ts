import { Writable } from 'node:stream';
import pino from 'pino';
import request from 'supertest';
import { createApp } from '../../../src/application/app/application';
import { buildTestApp, memoryLogger, startServer, type RunningServer } from './http-test-app';

describe('HTTP adapter: health, readiness, request ids, logs, security headers, CORS', () => {
  const logger = memoryLogger();
  let ready = true;
  let running: RunningServer;
  let withCors: RunningServer;
  let throwingReadiness: RunningServer;
  let bare: RunningServer;

  beforeAll(async () => {
    running = await startServer(buildTestApp(), { logger, readiness: async () => ready });
    withCors = await startServer(buildTestApp(), { cors: { origins: ['https://app.example.com'], credentials: true } });
    throwingReadiness = await startServer(buildTestApp(), { readiness: () => Promise.reject(new Error('db down')) });
    bare = await startServer(buildTestApp(), { securityHeaders: false });
  });
  afterAll(async () => {
    await Promise.all([running.close(), withCors.close(), throwingReadiness.close(), bare.close()]);
  });

  it('GET /health answers 200 { status: ok }', async () => {
    await request(running.url).get('/health').expect(200, { status: 'ok' });
  });

  it('GET /ready follows options.readiness: 200, then 503 when false or rejected', async () => {
    await request(running.url).get('/ready').expect(200, { status: 'ready' });
    ready = false;
    const res = await request(running.url).get('/ready').expect(503);
    expect(res.body).toMatchObject({ name: 'Unavailable', code: 503, className: 'unavailable' });
    ready = true;
    await request(throwingReadiness.url).get('/ready').expect(503);
    const pinged = await startServer(buildTestApp(), { readiness: async () => ({ ok: 1 }) });
    await request(pinged.url).get('/ready').expect(200, { status: 'ready' });
    await pinged.close();
  });

  it('every response carries a generated X-Request-Id, unique per request', async () => {
    const first = await request(running.url).get('/messages').expect(200);
    const second = await request(running.url).get('/nowhere').expect(404);
    expect(first.headers['x-request-id']).toMatch(/^[0-9a-f]+-[0-9a-z]+$/);
    expect(second.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
  });

  it('an incoming request id is kept only when it is a short safe token', async () => {
    const kept = await request(running.url).get('/health').set('X-Request-Id', 'abc-123_X.y').expect(200);
    expect(kept.headers['x-request-id']).toBe('abc-123_X.y');
    for (const unsafe of ['a b', 'x'.repeat(65), '<script>', 'id;drop', 'bad%20id']) {
      const res = await request(running.url).get('/health').set('X-Request-Id', unsafe).expect(200);
      expect(res.headers['x-request-id']).not.toBe(unsafe);
    }
  });

  it('logs one structured line per request with the request id, without the query string', async () => {
    const before = logger.lines.length;
    const res = await request(running.url)
      .get('/messages?token=secret-value')
      .set('X-Request-Id', 'log-check-1')
      .expect(200);
    const lines = logger.lines.slice(before).filter((line) => line.obj.requestId === 'log-check-1');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 'info', obj: { method: 'GET', path: '/messages', status: 200 } });
    expect(typeof lines[0].obj.durationMs).toBe('number');
    expect(JSON.stringify(lines[0].obj)).not.toContain('secret-value');
    expect(res.headers['x-request-id']).toBe('log-check-1');
  });

  it('writes one JSON line per request through a real pino logger, with the error for 500s', async () => {
    const lines: any[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(JSON.parse(String(chunk)));
        done();
      },
    });
    const app = createApp();
    app.use('boom', {
      async find() {
        throw new Error('kaput');
      },
    });
    const server = await startServer(app, { logger: pino({ level: 'info' }, sink), production: true });
    try {
      const res = await request(server.url).get('/boom').expect(500);
      await request(server.url).get('/health').expect(200);
      expect(lines).toHaveLength(2);
      expect(lines[0]).toMatchObject({
        level: 50,
        requestId: res.headers['x-request-id'],
        status: 500,
        err: { message: 'kaput' },
      });
      expect(lines[1]).toMatchObject({ level: 30, path: '/health', status: 200 });
      expect(lines[1].err).toBeUndefined();
    } finally {
      await server.close();
    }
  });

  it('sets the API security headers by default, on errors too, and not when disabled', async () => {
    for (const path of ['/messages', '/nowhere']) {
      const res = await request(running.url).get(path);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-security-policy']).toBe("frame-ancestors 'none'");
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['referrer-policy']).toBeUndefined();
      expect(res.headers['x-powered-by']).toBeUndefined();
    }
    const res = await request(bare.url).get('/messages').expect(200);
    expect(res.headers['x-content-type-options']).toBeUndefined();
    expect(res.headers['x-powered-by']).toBeUndefined();
  });

  it('CORS is off by default', async () => {
    const res = await request(running.url).get('/messages').set('Origin', 'https://app.example.com').expect(200);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    await request(running.url)
      .options('/messages')
      .set('Origin', 'https://app.example.com')
      .set('Access-Control-Request-Method', 'POST')
      .expect(405);
  });

  it('CORS, when configured, allows the listed origins and answers preflights', async () => {
    const res = await request(withCors.url).get('/messages').set('Origin', 'https://app.example.com').expect(200);
    expect(res.headers['access-control-allow-origin']).toBe('https://app.example.com');
    expect(res.headers['access-control-allow-credentials']).toBe('true');
    expect(res.headers.vary).toBe('Origin');
    const preflight = await request(withCors.url)
      .options('/messages')
      .set('Origin', 'https://app.example.com')
      .set('Access-Control-Request-Method', 'PATCH')
      .expect(204);
    expect(preflight.headers['access-control-allow-methods']).toContain('PATCH');
    expect(preflight.headers['access-control-allow-headers']).toContain('X-Service-Method');
    const other = await request(withCors.url).get('/messages').set('Origin', 'https://evil.example.com').expect(200);
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });
});
