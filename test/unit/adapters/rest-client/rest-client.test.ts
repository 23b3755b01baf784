import { FetchClient, rest, type FetchFunction } from '../../../../src/adapters/rest-client';
import { createApp } from '../../../../src/application/app/application';

type Sent = { url: string; init: Record<string, any> };

/** A fetch double that records each call and answers 200 with `{ ok: true }`. */
function recordingFetch(): FetchFunction & { calls: Sent[] } {
  const calls: Sent[] = [];
  const fn = async (url: string, init: Record<string, any> = {}) => {
    calls.push({ url, init });
    return { status: 200, statusText: 'OK', headers: {}, text: async () => '{"ok":true}' };
  };
  return Object.assign(fn, { calls });
}

describe('rest()', () => {
  it('configures an app: app.rest is the connection and unknown services are remote', async () => {
    const fetch = recordingFetch();
    const app = createApp().configure(rest('http://h:1/api/').fetch(fetch));
    expect(app.rest).toBe(fetch);
    await app.service('messages').find({ query: { a: 1 } });
    expect(fetch.calls[0].url).toBe('http://h:1/api/messages?a=1');
  });

  it('refuses a second library-selecting client on one app', () => {
    const app = createApp().configure(rest('http://h').fetch(recordingFetch()));
    expect(() =>
      app.configure(rest('http://other').axios({ request: async () => ({ status: 204, headers: {}, data: '' }) })),
    ).toThrow(/already configured/);
  });

  it('requires the library', () => {
    expect(() => rest('http://h').fetch(undefined as any)).toThrow('fetch has to be provided');
  });

  it('accepts the client class as second or third argument', () => {
    class Custom extends FetchClient {}
    expect(rest('http://h').fetch(recordingFetch(), Custom).service('x')).toBeInstanceOf(Custom);
    expect(
      rest('http://h')
        .fetch(recordingFetch(), { headers: { A: '1' } }, Custom)
        .service('x'),
    ).toBeInstanceOf(Custom);
  });

  it('binds the unbound global fetch but keeps it as app.rest', async () => {
    const original = globalThis.fetch;
    const receivers: unknown[] = [];
    const strictFetch = function (this: unknown) {
      receivers.push(this);
      return Promise.resolve({ status: 204, headers: {}, text: async () => '' });
    } as unknown as typeof fetch;
    globalThis.fetch = strictFetch;
    try {
      const app = createApp().configure(rest('http://h').fetch(globalThis.fetch));
      expect(app.rest).toBe(strictFetch);
      await app.service('x').find();
      expect(receivers).toEqual([globalThis]);
    } finally {
      globalThis.fetch = original;
    }
  });
});

describe('requests', () => {
  it('merges default, per-call and connection headers; connection.headers does not replace them', async () => {
    const fetch = recordingFetch();
    const service = rest('http://h')
      .fetch(fetch, { headers: { Authorization: 'Bearer default', 'X-Default': 'd' } })
      .service('m');
    await service.patch(
      1,
      { a: 1 },
      { headers: { Authorization: 'Bearer call' }, connection: { headers: { 'X-Conn': 'c' }, credentials: 'include' } },
    );
    const { init } = fetch.calls[0];
    expect(init).toMatchObject({ method: 'PATCH', body: '{"a":1}', credentials: 'include' });
    expect(init.headers).toEqual({
      accept: 'application/json',
      Authorization: 'Bearer call',
      'X-Default': 'd',
      'content-type': 'application/json',
      'X-Conn': 'c',
    });
  });

  it('sends only the default headers when a call adds none, and keeps the client options fixed', async () => {
    const fetch = recordingFetch();
    const service = rest('http://h')
      .fetch(fetch, { headers: { Authorization: 'Bearer default' } })
      .service('m');
    await service.get(1);
    await service.get(2, { connection: { signal: new AbortController().signal, timeout: 1000 } });
    expect(fetch.calls[0].init.headers).toEqual({ accept: 'application/json', Authorization: 'Bearer default' });
    // Each call gets its own headers object: a library may add to it.
    expect(fetch.calls[1].init.headers).not.toBe(fetch.calls[0].init.headers);
    expect(fetch.calls[1].init).not.toHaveProperty('timeout');
    expect(Object.isFrozen(service.options.headers)).toBe(true);
  });

  it('rejects (does not throw) a custom method call with a missing route value', async () => {
    const fetch = recordingFetch();
    const service = rest('http://h').fetch(fetch).service('users/:userId/messages').methods('markRead') as any;
    const call = service.markRead({});
    expect(call).toBeInstanceOf(Promise);
    await expect(call).rejects.toMatchObject({ name: 'BadRequest' });
    expect(fetch.calls).toHaveLength(0);
  });

  it('fills route placeholders and encodes ids', async () => {
    const fetch = recordingFetch();
    const service = rest('http://h').fetch(fetch).service('users/:userId/messages');
    await service.get('a/b', { route: { userId: 'u 1' } });
    expect(fetch.calls[0].url).toBe('http://h/users/u%201/messages/a%2Fb');
  });

  it('rejects a missing id before any request', async () => {
    const fetch = recordingFetch();
    const service = rest('http://h').fetch(fetch).service('m');
    await expect(service.get(undefined as any)).rejects.toMatchObject({
      name: 'BadRequest',
      message: 'id for .get is required',
    });
    await expect(service.get(null as any)).rejects.toMatchObject({ name: 'BadRequest' });
    await expect(service.patch('' as any, {})).rejects.toMatchObject({ message: 'id for .patch is required' });
    await expect(service.remove(undefined as any)).rejects.toMatchObject({ message: 'id for .remove is required' });
    expect(fetch.calls).toHaveLength(0);
  });

  it('sends custom methods registered with app.use as POST with X-Service-Method', async () => {
    const fetch = recordingFetch();
    const client = rest('http://h').fetch(fetch);
    const app = createApp().use('m', client.service('m'), { methods: ['find', 'sum'] });
    await app.service('m').sum({ values: [1, 2] }, { query: { q: 'x' } });
    expect(fetch.calls[0]).toMatchObject({ url: 'http://h/m?q=x', init: { method: 'POST', body: '{"values":[1,2]}' } });
    expect(fetch.calls[0].init.headers['X-Service-Method']).toBe('sum');
    expect(app.service('m').other).toBeUndefined();
  });

  it('refuses reserved names as custom methods', () => {
    const service = rest('http://h').fetch(recordingFetch()).service('m');
    expect(() => createApp().use('m', service, { methods: ['hooks'] })).toThrow(/not allowed/);
  });
});
