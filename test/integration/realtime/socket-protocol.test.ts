import { MemoryService } from '../../../src/adapters/memory';
import { PASSWORD } from '../../helpers/accounts';
import { startApp, type RunningApp } from '../../helpers/app-server';
import { call } from '../../helpers/http';
import { idOf, signedInSocket } from '../../helpers/signed-in-socket';
import { pause, RecordingSocket, stockClient, waitFor } from '../../helpers/socket-clients';

/** Where this transport does better than Feathers 5: each point is a reported defect there. */
describe('socket transport beyond Feathers', () => {
  let app: RunningApp;
  const sockets: { close(): void }[] = [];
  const track = <T extends { close(): void }>(socket: T): T => {
    sockets.push(socket);
    return socket;
  };

  beforeAll(async () => {
    app = await startApp({ STORE: 'memory' }, { rateLimit: { maxFailuresPerEmail: 2, maxFailuresPerClient: 1000 } });
  }, 60_000);
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    // A long-polling client sends its close packet over HTTP a moment later.
    await pause(300);
    await app?.close();
  });

  async function anonymous(): Promise<RecordingSocket> {
    const socket = track(new RecordingSocket(app.url));
    await socket.connected();
    return socket;
  }

  it('an unknown method name gets an error ack, never silence', async () => {
    const socket = await anonymous();
    const [error] = await socket.call('notAMethod', 'messages', {}, {});
    expect(error).toMatchObject({ name: 'MethodNotAllowed', code: 405 });
    const [noService] = await socket.call('find', 'nope', {});
    expect(noService).toMatchObject({ name: 'NotFound', code: 404 });
    const [badPath] = await socket.call('find', 123, {});
    expect(badPath).toMatchObject({ name: 'NotFound' });
    const [tooMany] = await socket.call('find', 'users', {}, {});
    expect(tooMany).toMatchObject({ name: 'BadRequest', message: "Too many arguments for 'find' method" });
  });

  it(
    'services registered after a socket connected are callable from it, custom ' +
      'methods too; a non-framework error sends no stack',
    async () => {
      const socket = await anonymous();
      const late = {
        async find() {
          throw new Error('database password is hunter2 at 10.0.0.5');
        },
        async get() {
          throw 'a thrown string';
        },
        async shout(data: { text: string }) {
          return { text: data.text.toUpperCase() };
        },
      };
      app.composed.app.use('late', late, { methods: ['find', 'get', 'shout'] });
      const [shouted, result] = await socket.call('shout', 'late', { text: 'hi' });
      expect(shouted).toBeNull();
      expect(result).toEqual({ text: 'HI' });
      for (const [method, ...args] of [
        ['find', {}],
        ['get', 1, {}],
      ] as [string, ...unknown[]][]) {
        const [error] = (await socket.call(method, 'late', ...args)) as [Record<string, unknown>];
        expect(error).toMatchObject({ name: 'GeneralError', code: 500, className: 'general-error' });
        expect(error.stack).toBeUndefined();
        expect(JSON.stringify(error)).not.toContain('    at ');
      }
    },
  );

  it("re-authenticating as another user leaves the first user's channels", async () => {
    const alice = await signedInSocket(app.url);
    track(alice.socket);
    const bob = await signedInSocket(app.url);
    track(bob.socket);
    // Alice's socket now logs in as Bob.
    const [error] = await alice.socket.call(
      'create',
      'authentication',
      { strategy: 'jwt', accessToken: bob.token },
      {},
    );
    expect(error).toBeNull();
    await app.composed.app.service('users').patch(alice.user._id, { name: 'Alice changed' });
    await app.composed.app.service('users').patch(bob.user._id, { name: 'Bob changed' });
    await waitFor(
      () => alice.socket.named('users patched').length >= 1,
      "bob's users event on the re-authenticated socket",
    );
    await pause(200);
    expect(alice.socket.named('users patched').map((user) => user.name)).toEqual(['Bob changed']);
  });

  it('logout returns the socket to the anonymous state', async () => {
    const { socket } = await signedInSocket(app.url);
    track(socket);
    const writer = await signedInSocket(app.url);
    track(writer.socket);
    await writer.socket.call('create', 'messages', { text: 'before logout' }, {});
    await waitFor(() => socket.named('messages created').length === 1, 'the first message');
    const [logoutError, logout] = (await socket.call('remove', 'authentication', null, {})) as [
      unknown,
      Record<string, any>,
    ];
    expect(logoutError).toBeNull();
    expect(JSON.stringify(logout)).not.toContain('password');
    const [notAuthenticated] = await socket.call('find', 'messages', {});
    expect(notAuthenticated).toMatchObject({ name: 'NotAuthenticated' });
    await writer.socket.call('create', 'messages', { text: 'after logout' }, {});
    await pause(300);
    expect(socket.named('messages created').map((message) => message.text)).toEqual(['before logout']);
    expect(app.composed.app.channel('anonymous').connections.length).toBeGreaterThan(0);
  });

  it('events of a service with route placeholders are named with the concrete path', async () => {
    app.composed.app.use('rooms/:roomId/notes', new MemoryService());
    app.composed.app.service('rooms/:roomId/notes').publish(() => app.composed.app.channel('authenticated'));
    const { socket } = await signedInSocket(app.url);
    track(socket);
    const stock = track(stockClient(app.url));
    await stock.app.authenticate({
      strategy: 'jwt',
      accessToken: (await signedInSocket(app.url).then((s) => (track(s.socket), s))).token,
    });
    const heardByStock: unknown[] = [];
    stock.app.service('rooms/7/notes').on('created', (note: unknown) => heardByStock.push(note));
    const [error, note] = (await socket.call('create', 'rooms/7/notes', { text: 'in room 7' }, {})) as [
      unknown,
      Record<string, unknown>,
    ];
    expect(error).toBeNull();
    await waitFor(() => heardByStock.length === 1, 'the stock client to hear rooms/7/notes created');
    expect(socket.named('rooms/7/notes created')).toEqual([note]);
    expect(socket.events.some(([name]) => name.includes(':roomId'))).toBe(false);
  });

  it('a service not exposed to transports publishes nothing unless its registration says so', async () => {
    const { socket } = await signedInSocket(app.url);
    track(socket);
    const core = app.composed.app;
    core.use('internal-tokens', new MemoryService(), { methods: [] });
    core.use('internal-feed', new MemoryService(), { methods: [], publishEvents: true });
    core.publish(() => core.channel('authenticated'));
    try {
      await core.service('internal-tokens').create({ secret: 'never on the wire' });
      await core.service('internal-feed').create({ text: 'published on purpose' });
      await waitFor(() => socket.named('internal-feed created').length === 1, 'the opted-in internal event');
      await pause(200);
      expect(socket.named('internal-tokens created')).toEqual([]);
      const [error] = await socket.call('find', 'internal-tokens', {});
      expect(error).toMatchObject({ name: 'MethodNotAllowed' });
    } finally {
      core.publish(() => null);
    }
  });

  it('socket queries keep their JSON types and pass the same checks as REST', async () => {
    const { socket } = await signedInSocket(app.url);
    track(socket);
    const [, created] = (await socket.call('create', 'messages', { text: 'typed query' }, {})) as [
      unknown,
      Record<string, any>,
    ];
    const [typedError, page] = (await socket.call('find', 'messages', {
      read: false,
      createdAt: { $gte: created.createdAt },
      userId: created.userId,
    })) as [unknown, any];
    expect(typedError).toBeNull();
    expect(page.data.map(idOf)).toContain(idOf(created));
    const rejected: unknown[] = [
      JSON.parse('{"__proto__": {"polluted": 1}}'),
      { constructor: { prototype: 1 } },
      { text: { prototype: 'x' } },
      { $where: 'true' },
      { notAField: 1 },
      { read: 'maybe' },
      { text: 5 },
      { $limit: -1 },
      { $sort: { createdAt: 'up' } },
      { userId: { $in: Array.from({ length: 201 }, (_, index) => String(index)) } },
      'a string',
      [1, 2],
    ];
    for (const query of rejected) {
      const [error] = (await socket.call('find', 'messages', query)) as [Record<string, unknown>];
      expect({ query, error: error?.name }).toEqual({ query, error: 'BadRequest' });
    }
    let deep: Record<string, unknown> = { $eq: 'x' };
    for (let level = 0; level < 12; level++) deep = { $or: [{ text: deep }] };
    const branch = { text: 'a', userId: 'b', read: false, createdAt: 1 };
    const many = { $or: Array.from({ length: 200 }, () => branch), $and: Array.from({ length: 200 }, () => branch) };
    for (const [query, message] of [
      [deep, /nested deeper than 10 levels/],
      [many, /more than 1000 values/],
    ] as const) {
      const [error] = (await socket.call('find', 'messages', query)) as [Record<string, unknown>];
      expect(error).toMatchObject({ name: 'BadRequest', message: expect.stringMatching(message) });
    }
    const [bodyError] = (await socket.call(
      'create',
      'messages',
      JSON.parse('{"text": "x", "__proto__": {"admin": true}}'),
      {},
    )) as [Record<string, unknown>];
    expect(bodyError).toMatchObject({ name: 'BadRequest' });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('login over a socket is rate limited as over REST', async () => {
    const victim = await signedInSocket(app.url);
    track(victim.socket);
    const socket = await anonymous();
    const attempt = () =>
      socket.call(
        'create',
        'authentication',
        { strategy: 'local', email: victim.email, password: 'wrong password' },
        {},
      );
    expect((await attempt())[0]).toMatchObject({ name: 'NotAuthenticated' });
    expect((await attempt())[0]).toMatchObject({ name: 'NotAuthenticated' });
    expect((await attempt())[0]).toMatchObject({ name: 'TooManyRequests', code: 429 });
    const rest = await call(app.url, 'POST', '/authentication', {
      body: { strategy: 'local', email: victim.email, password: PASSWORD },
    });
    expect(rest.status).toBe(429);
  });

  it('an inbound message over 1 MB closes only its own connection', async () => {
    const big = await anonymous();
    const other = await signedInSocket(app.url);
    track(other.socket);
    const closed = new Promise<string>((resolve) => big.socket.once('disconnect', (reason) => resolve(reason)));
    big.socket.emit('create', 'messages', { text: 'x'.repeat(1_100_000) }, {});
    expect(await closed).toMatch(/transport (close|error)/);
    const [error, page] = (await other.socket.call('find', 'messages', {})) as [unknown, any];
    expect(error).toBeNull();
    expect(page.total).toBeGreaterThanOrEqual(0);
  });

  it(
    'a token in the handshake signs the socket in before its first frame, and ' +
      'not into anonymous as well; a bad one is refused',
    async () => {
      const account = await signedInSocket(app.url);
      track(account.socket);
      const core = app.composed.app;
      const anonymousBefore = core.channel('anonymous').length;
      const viaAuth = track(new RecordingSocket(app.url, { auth: { token: account.token } }));
      await viaAuth.connected();
      const [error, page] = (await viaAuth.call('find', 'messages', {})) as [unknown, { total: number }];
      expect(error).toBeNull();
      expect(page.total).toBeGreaterThanOrEqual(0);
      const viaHeader = track(
        new RecordingSocket(app.url, { extraHeaders: { authorization: `Bearer ${account.token}` } }),
      );
      await viaHeader.connected();
      expect((await viaHeader.call('find', 'messages', {}))[0]).toBeNull();
      expect(core.channel('anonymous').length).toBe(anonymousBefore);
      const refused = track(new RecordingSocket(app.url, { auth: { token: 'not.a.token' } }));
      await expect(refused.connected()).rejects.toMatchObject({ data: { name: 'NotAuthenticated', code: 401 } });
    },
  );

  it('long-polling clients work too (HTTP polling only, no WebSocket)', async () => {
    const polling = track(new RecordingSocket(app.url, { transports: ['polling'] }));
    await polling.connected();
    const writer = await signedInSocket(app.url);
    track(writer.socket);
    const [error] = await polling.call('create', 'authentication', { strategy: 'jwt', accessToken: writer.token }, {});
    expect(error).toBeNull();
    await writer.socket.call('create', 'messages', { text: 'heard over polling' }, {});
    await waitFor(
      () => polling.named('messages created').some((message) => message.text === 'heard over polling'),
      'the event over polling',
    );
  });

  it('connect, authenticate and disconnect cycles leave connections, channels and timers at baseline', async () => {
    const hub = app.composed.app.realtime!;
    await pause(100);
    const before = {
      connections: hub.connections.size,
      timers: hub.pendingTimers,
      authenticated: app.composed.app.channel('authenticated').length,
    };
    const { token } = await signedInSocket(app.url).then((s) => (s.socket.close(), s));
    for (let cycle = 0; cycle < 100; cycle++) {
      const socket = new RecordingSocket(app.url);
      await socket.connected();
      await socket.call('create', 'authentication', { strategy: 'jwt', accessToken: token }, {});
      socket.close();
    }
    await waitFor(() => hub.connections.size === before.connections, 'every cycled connection to be gone');
    expect(hub.pendingTimers).toBe(before.timers);
    expect(app.composed.app.channel('authenticated').length).toBe(before.authenticated);
    expect(app.composed.app.channels.filter((name) => name.startsWith('users/')).length).toBeLessThanOrEqual(
      before.authenticated + 5,
    );
  });
});
