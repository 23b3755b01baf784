import { io, type Socket } from 'socket.io-client';
import { authenticationClient, createApp, rest, type Application } from '../../../src/client';
import { PASSWORD, uniqueEmail } from '../../helpers/accounts';
import { BOTH_STORES, startApp, type RunningApp } from '../../helpers/app-server';
import { call } from '../../helpers/http';
import { pause, signedInOurClient, waitFor } from '../../helpers/socket-clients';

const LIFETIME_S = 2;

/**
 * Our authentication client keeps a session going past its access tokens' expiry, with nothing for
 * the application to do.
 */
describe.each(BOTH_STORES)('our client refreshes by itself (%s store, %d-second access tokens)', (_store, env) => {
  let server: RunningApp;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    server = await startApp(env, { jwtOptions: { expiresIn: LIFETIME_S } });
  }, 60_000);
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await server?.close();
  });

  async function socketClient() {
    const socket = io(server.url, { transports: ['websocket'], forceNew: true, reconnection: false });
    sockets.push(socket);
    const { app, auth, login } = await signedInOurClient(socket, { emailPrefix: 'refreshing' });
    return { app, auth, socket, login };
  }

  it(
    "over a socket: calls go on past the first token's expiry on the " + 'same connection, which keeps hearing events',
    async () => {
      const { app, auth, socket, login } = await socketClient();
      const writer = await socketClient();
      const socketId = socket.id;
      const disconnects: string[] = [];
      socket.on('disconnect', (reason) => disconnects.push(reason));
      const heard: string[] = [];
      app.service('messages').on('created', (message: { text: string }) => heard.push(message.text));
      const deadline = Date.now() + (LIFETIME_S + 1.5) * 1000;
      while (Date.now() < deadline) {
        expect((await app.service('messages').find({})).total).toBeGreaterThanOrEqual(0);
        await pause(150);
      }
      const current = await auth.storage.getItem('accessToken');
      expect(current).not.toBe(login.accessToken);
      expect(await auth.storage.getItem('refreshToken')).not.toBe(login.refreshToken);
      await writer.app.service('messages').create({ text: 'after the first expiry' });
      await waitFor(() => heard.includes('after the first expiry'), 'the event after the refresh');
      expect(socket.id).toBe(socketId);
      expect(disconnects).toEqual([]);
      await auth.logout();
      await writer.auth.logout();
    },
    15_000,
  );

  it('over a socket: an idle client is refreshed before its token expires, so it goes on hearing events', async () => {
    const listener = await socketClient();
    const writer = await socketClient();
    const heard: string[] = [];
    listener.app.service('messages').on('created', (message: { text: string }) => heard.push(message.text));
    // No call from the listener: only its own timer can keep the connection signed in.
    await pause((LIFETIME_S + 1) * 1000);
    await writer.app.service('messages').create({ text: 'to an idle listener' });
    await waitFor(() => heard.includes('to an idle listener'), 'the event at the idle listener');
    await listener.auth.logout();
    await writer.auth.logout();
  }, 10_000);

  it('over REST: a call after the expiry is made with a fresh token', async () => {
    const app: Application = createApp().configure(rest(server.url).fetch(fetch));
    const auth = authenticationClient();
    app.configure(auth.configure);
    const email = uniqueEmail('rest-refresh');
    await app.service('users').create({ email, password: PASSWORD });
    const login = await auth.authenticate({ strategy: 'local', email, password: PASSWORD });
    await pause((LIFETIME_S + 0.5) * 1000);
    expect((await app.service('messages').create({ text: 'still signed in' })).text).toBe('still signed in');
    expect(await auth.storage.getItem('accessToken')).not.toBe(login.accessToken);
    await auth.logout();
  }, 10_000);

  it('reAuthenticate with an expired stored access token signs in with the stored refresh token', async () => {
    const email = uniqueEmail('stored-refresh');
    expect((await call(server.url, 'POST', '/users', { body: { email, password: PASSWORD } })).status).toBe(201);
    // What a page left in its storage before it was closed.
    const login = (
      await call(server.url, 'POST', '/authentication', { body: { strategy: 'local', email, password: PASSWORD } })
    ).body;
    const storage = new Map<string, string>([
      ['accessToken', login.accessToken],
      ['refreshToken', login.refreshToken],
    ]);
    await pause((LIFETIME_S + 0.5) * 1000);
    const app: Application = createApp().configure(rest(server.url).fetch(fetch));
    const auth = authenticationClient({
      storage: {
        getItem: (key) => storage.get(key),
        setItem: (key, value) => void storage.set(key, value),
        removeItem: (key) => void storage.delete(key),
      },
    });
    app.configure(auth.configure);
    const resumed = await auth.reAuthenticate();
    expect(resumed.authentication).toMatchObject({ strategy: 'refresh' });
    expect(storage.get('refreshToken')).not.toBe(login.refreshToken);
    expect((await app.service('messages').find({})).total).toBeGreaterThanOrEqual(0);
    await auth.logout();
    expect([...storage.keys()]).toEqual([]);
  }, 15_000);
});
