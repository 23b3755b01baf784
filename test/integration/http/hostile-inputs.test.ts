import http from 'node:http';
import net from 'node:net';
import request from 'supertest';
import { buildTestApp, startServer, type RunningServer } from './http-test-app';

/** Each hostile request must get a clean 4xx JSON error, and the server must keep answering. */
describe('HTTP adapter: hostile inputs', () => {
  let running: RunningServer;

  beforeAll(async () => {
    const app = buildTestApp();
    await app.service('messages').create({ text: 'secret', owner: 'a' });
    running = await startServer(app);
  });
  afterAll(() => running.close());

  afterEach(async () => {
    await request(running.url).get('/health').expect(200, { status: 'ok' });
  });

  const expectClientError = (res: request.Response, status = 400) => {
    expect(res.status).toBe(status);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toMatchObject({ code: status, name: expect.any(String), className: expect.any(String) });
  };

  it.each([
    ['$where', '/messages?$where=sleep(5000)'],
    ['$where nested in $or', '/messages?$or[0][$where]=1'],
    ['$where nested in $and/$or', '/messages?$and[0][$or][0][text][$where]=1'],
    ['$expr', '/messages?$expr[$eq][0]=1'],
    ['$function as an operator', '/messages?text[$function]=x'],
    ['constructor key', '/messages?constructor[prototype][admin]=1'],
    ['nested constructor key', '/messages?text[constructor]=1'],
    ['prototype key', '/messages?prototype=1'],
    ['__proto__ key', '/messages?__proto__[admin]=1'],
    ['encoded __proto__ key', '/messages?%5F%5Fproto%5F%5F[admin]=1'],
    ['$limit=abc', '/messages?$limit=abc'],
    ['$skip=-1', '/messages?$skip=-1'],
    ['$sort[x]=abc', '/messages?$sort[text]=abc'],
  ])('operator injection: %s is a 400', async (_label, url) => {
    expectClientError(await request(running.url).get(url));
  });

  it('a 5,000-element array is a 400, in indices, brackets or repeated-key form', async () => {
    const indices = Array.from({ length: 5000 }, (_, i) => `text[$in][${i}]=${i}`).join('&');
    const brackets = Array.from({ length: 5000 }, (_, i) => `a[]=${i}`).join('&');
    const repeated = Array.from({ length: 5000 }, (_, i) => `a=${i}`).join('&');
    for (const query of [indices, brackets, repeated]) {
      // Under Node's 16 KB header limit a 5,000-element array does not even reach the adapter.
      expectClientError(await request(running.url).get(`/messages?${query}`));
    }
  });

  it('with a larger header limit, 5,000-element arrays reach the adapter and are still a 400', async () => {
    const app = buildTestApp();
    const roomy = await startServer(app, {}, { maxHeaderSize: 256 * 1024 });
    try {
      const indices = Array.from({ length: 5000 }, (_, i) => `text[$in][${i}]=${i}`).join('&');
      const res = await request(roomy.url).get(`/messages?${indices}`);
      expectClientError(res);
      expect(res.body.message).toMatch(/Invalid query string/);
    } finally {
      await roomy.close();
    }
  });

  it('array and parameter limits are enforced by the adapter itself when the URL fits', async () => {
    const overArray = Array.from({ length: 201 }, () => 'a[]=1').join('&');
    const res = await request(running.url).get(`/echo?${overArray}`);
    expectClientError(res);
    expect(res.body.message).toMatch(/Array limit/);
    const deep = `/echo?a${'[b]'.repeat(11)}=1`;
    expect((await request(running.url).get(deep)).body.message).toMatch(/depth/);
  });

  it('a 100 KB query string is a 400 JSON answer', async () => {
    const res = await rawGet(running.url, `/messages?q=${'x'.repeat(100 * 1024)}`);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toMatchObject({ name: 'BadRequest', code: 400 });
  });

  it('a 50 MB body is a 413 and is not buffered', async () => {
    const body = JSON.stringify({ text: 'x'.repeat(50 * 1024 * 1024) });
    const res = await request(running.url).post('/messages').set('Content-Type', 'application/json').send(body);
    expectClientError(res, 413);
  });

  it('a 50 MB body without a declared length (chunked) is a 413', async () => {
    const res = await chunkedPost(running.url, '/messages', 50, 1024 * 1024);
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toMatchObject({ name: 'PayloadTooLarge' });
  });

  it('10,000-deep JSON nesting is a 400 without a stack overflow', async () => {
    const deepArray = '['.repeat(10_000) + ']'.repeat(10_000);
    const deepObject = '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000);
    for (const body of [deepArray, deepObject]) {
      const res = await request(running.url).post('/messages').set('Content-Type', 'application/json').send(body);
      expectClientError(res);
      expect(res.body.message).toMatch(/nested deeper/);
    }
  });

  it('10,000-deep query nesting is a 400', async () => {
    expectClientError(await request(running.url).get(`/messages?a${'[a]'.repeat(2_000)}=1`));
  });

  it('a client that disconnects mid-body leaves the server answering', async () => {
    const { hostname, port } = new URL(running.url);
    await new Promise<void>((resolve) => {
      const socket = net.connect(Number(port), hostname, () => {
        socket.write(
          'POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"a":',
        );
        setImmediate(() => {
          socket.destroy();
          resolve();
        });
      });
    });
  });

  it('malformed HTTP is answered with JSON', async () => {
    const res = await rawRequest(running.url, 'GET /messages HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n');
    expect(res).toMatch(/^HTTP\/1\.1 400/);
    expect(res).toContain('"name":"BadRequest"');
  });
});

function rawGet(base: string, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(base + path, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      })
      .on('error', reject);
  });
}

/** Streams `chunks` x `size` bytes with chunked encoding, stopping once the answer arrives. */
function chunkedPost(
  base: string,
  path: string,
  chunks: number,
  size: number,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      base + path,
      { method: 'POST', headers: { 'Content-Type': 'application/json' } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    const chunk = Buffer.alloc(size, 0x61);
    let sent = 0;
    const pump = (): void => {
      while (sent < chunks) {
        sent++;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      req.end();
    };
    req.write('{"text":"');
    pump();
  });
}

function rawRequest(base: string, raw: string): Promise<string> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(raw));
    let data = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (data += chunk));
    socket.on('end', () => resolve(data));
    socket.on('error', reject);
  });
}
