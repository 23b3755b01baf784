import { io, type Socket } from 'socket.io-client';
import {
  authenticationClient,
  createApp,
  NotAuthenticated,
  NotFound,
  rest,
  type Application,
} from '../../../src/client';
import { PASSWORD, uniqueEmail } from '../../helpers/accounts';
import { startApp, type RunningApp } from '../../helpers/app-server';
import { pause, reconnected, signedInOurClient, waitFor } from '../../helpers/socket-clients';

/** Our own client (`./client`) on a socket, with the authentication client; and the same helpers over REST. */
describe('our socket client', () => {
  let server: RunningApp;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    server = await startApp({ STORE: 'memory' });
  }, 60_000);
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await server?.close();
  });

  async function signedInClient(options: { reconnection?: boolean } = {}) {
    const socket = io(server.url, {
      transports: ['websocket'],
      forceNew: true,
      reconnection: options.reconnection ?? false,
      reconnectionDelay: 100,
    });
    sockets.push(socket);
    return { ...(await signedInOurClient(socket)), socket };
  }

  it("calls every method, revives errors, and hears other clients' events once", async () => {
    const alice = await signedInClient();
    const bob = await signedInClient();
    expect(JSON.stringify(alice.login)).not.toContain('password');
    const messages = alice.app.service('messages');
    const heardByBob: any[] = [];
    const heardByAlice: any[] = [];
    bob.app.service('messages').on('created', (message: unknown) => heardByBob.push(message));
    messages.on('created', (message: unknown) => heardByAlice.push(message));
    const created = await messages.create({ text: 'from our client' });
    expect((await messages.get(created._id)).text).toBe('from our client');
    expect((await messages.find({ query: { userId: created.userId } })).total).toBe(1);
    expect((await messages.patch(created._id, { text: 'patched' })).text).toBe('patched');
    expect((await messages.markRead({ id: String(created._id) })).read).toBe(true);
    await expect(messages.get('0123456789abcdef01234567')).rejects.toBeInstanceOf(NotFound);
    await waitFor(() => heardByBob.length === 1 && heardByAlice.length === 1, 'the created event at both clients');
    await pause(200);
    expect(heardByBob).toEqual([expect.objectContaining({ text: 'from our client' })]);
    expect(heardByAlice).toHaveLength(1);
    await messages.remove(created._id);
  });

  it(
    'logout makes later calls unauthenticated and ends the ' + 'session; a new login works on the same socket',
    async () => {
      const { app, auth, socket, email } = await signedInClient();
      const token = await auth.storage.getItem('accessToken');
      await auth.logout();
      await expect(app.service('messages').find({})).rejects.toBeInstanceOf(NotAuthenticated);
      await auth.storage.setItem('accessToken', token!);
      await expect(auth.reAuthenticate()).rejects.toMatchObject({ code: 401, data: { reason: 'revoked' } });
      await auth.authenticate({ strategy: 'local', email, password: PASSWORD });
      expect(socket.connected).toBe(true);
      expect((await app.service('messages').find({})).total).toBeGreaterThanOrEqual(0);
    },
  );

  it(
    'after the transport drops, the client reconnects, signs in with ' + 'the stored token and hears events again',
    async () => {
      const listener = await signedInClient({ reconnection: true });
      const writer = await signedInClient();
      const heard: any[] = [];
      listener.app.service('messages').on('created', (message: unknown) => heard.push(message));
      const back = reconnected(listener.socket);
      (listener.socket.io as unknown as { engine: { close(): void } }).engine.close();
      await back;
      expect((await listener.app.service('messages').find({})).total).toBeGreaterThanOrEqual(0);
      await writer.app.service('messages').create({ text: 'after the reconnect' });
      await waitFor(
        () => heard.some((message) => message.text === 'after the reconnect'),
        'the event after the reconnect',
      );
    },
  );

  it(
    'a call made while the socket is away waits for it, and for the login a ' +
      'new connection needs, even past the call timeout',
    async () => {
      // Without resuming, the connection that comes back is a new, anonymous one.
      const fresh = await startApp({ STORE: 'memory', EVENTS_RESUME_WINDOW_MS: '0' });
      const socket = io(fresh.url, {
        transports: ['websocket'],
        forceNew: true,
        reconnectionDelay: 1_200,
        reconnectionDelayMax: 1_200,
        randomizationFactor: 0,
      });
      try {
        const { app, auth } = await signedInOurClient(socket, { timeout: 500, emailPrefix: 'away' });
        const back = reconnected(socket);
        (socket.io as unknown as { engine: { close(): void } }).engine.close();
        // Away longer than the call timeout: the call neither times out nor runs anonymously.
        const created = app.service('messages').create({ text: 'written while away' });
        await back;
        expect(socket.recovered).toBeFalsy();
        await expect(created).resolves.toMatchObject({ text: 'written while away' });
        expect(auth.authenticated).toBe(true);
      } finally {
        socket.close();
        await fresh.close();
      }
    },
    20_000,
  );

  it(
    'a connection that resumes is still signed in: calls made ' + 'while away go at once, without a new login',
    async () => {
      const { app, auth, socket } = await signedInClient({ reconnection: true });
      const logins: unknown[] = [];
      socket.onAnyOutgoing((event: string, path: unknown) => {
        if (event === 'create' && path === 'authentication') logins.push(path);
      });
      const back = reconnected(socket);
      (socket.io as unknown as { engine: { close(): void } }).engine.close();
      const created = app.service('messages').create({ text: 'written while resuming' });
      await back;
      expect(socket.recovered).toBe(true);
      await expect(created).resolves.toMatchObject({ text: 'written while resuming' });
      expect(auth.authenticated).toBe(true);
      expect(logins).toEqual([]);
    },
  );

  it('the same helpers work over REST: login, token on every call, logout', async () => {
    const app: Application = createApp().configure(rest(server.url).fetch(fetch));
    const auth = authenticationClient();
    app.configure(auth.configure);
    const email = uniqueEmail('rest-auth');
    await app.service('users').create({ email, password: PASSWORD });
    await expect(app.service('messages').find({})).rejects.toBeInstanceOf(NotAuthenticated);
    await auth.authenticate({ strategy: 'local', email, password: PASSWORD });
    expect((await app.service('messages').create({ text: 'over REST' })).text).toBe('over REST');
    await auth.logout();
    await expect(app.service('messages').find({})).rejects.toBeInstanceOf(NotAuthenticated);
  });
});
