import { PASSWORD } from '../../helpers/accounts';
import { startApp, type RunningApp } from '../../helpers/app-server';
import { signedInSocket } from '../../helpers/signed-in-socket';
import { pause, stockClient, waitFor } from '../../helpers/socket-clients';

/**
 * Feathers drops the socket when its token expires (and its client then raises an unhandled
 * rejection). Here the socket stays: it becomes anonymous, hears nothing more, calls that need
 * authentication get NotAuthenticated, and the client signs in again on the same connection.
 */
describe('token expiry on a socket', () => {
  let app: RunningApp;
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);

  beforeAll(async () => {
    process.on('unhandledRejection', onUnhandled);
    app = await startApp({ STORE: 'memory' }, { jwtOptions: { expiresIn: 2 } });
  }, 60_000);
  afterAll(async () => {
    process.off('unhandledRejection', onUnhandled);
    await app?.close();
  });

  it('the socket becomes anonymous at expiry and signs in again on the same connection', async () => {
    const listener = await signedInSocket(app.url);
    const writer = await signedInSocket(app.url);
    const stock = stockClient(app.url);
    try {
      await stock.app.authenticate({ strategy: 'local', email: listener.email, password: PASSWORD });
      const socketId = listener.socket.socket.id;
      await writer.socket.call('create', 'messages', { text: 'before expiry' }, {});
      await waitFor(() => listener.socket.named('messages created').length === 1, 'the event before expiry');
      const logouts: unknown[] = [];
      app.composed.app.on('logout', (_result: unknown, meta: { reason?: string }) => logouts.push(meta.reason));
      await waitFor(() => logouts.length >= 3, 'all three sockets to expire', 6_000);
      expect(logouts).toEqual(['expired', 'expired', 'expired']);
      expect(listener.socket.socket.connected).toBe(true);
      expect(listener.socket.socket.id).toBe(socketId);
      await app.composed.app.service('messages').create({ text: 'while anonymous', userId: 'someone' });
      const [notAuthenticated] = await listener.socket.call('find', 'messages', {});
      expect(notAuthenticated).toMatchObject({ name: 'NotAuthenticated' });
      await expect(stock.app.service('messages').find({})).rejects.toMatchObject({ name: 'NotAuthenticated' });
      // Sign in again on the same connection (the writer too: its token has expired as well).
      const [error] = await listener.socket.call(
        'create',
        'authentication',
        { strategy: 'local', email: listener.email, password: PASSWORD },
        {},
      );
      expect(error).toBeNull();
      await writer.socket.call(
        'create',
        'authentication',
        { strategy: 'local', email: writer.email, password: PASSWORD },
        {},
      );
      const relogin = await stock.app.authenticate({ strategy: 'local', email: listener.email, password: PASSWORD });
      expect(typeof relogin.accessToken).toBe('string');
      expect(stock.socket.connected).toBe(true);
      await writer.socket.call('create', 'messages', { text: 'after re-login' }, {});
      await waitFor(() => listener.socket.named('messages created').length === 2, 'the event after re-login');
      expect(listener.socket.named('messages created').map((message) => message.text)).toEqual([
        'before expiry',
        'after re-login',
      ]);
      expect(listener.socket.socket.id).toBe(socketId);
      await pause(100);
      expect(unhandled).toEqual([]);
    } finally {
      listener.socket.close();
      writer.socket.close();
      stock.close();
    }
  });
});
