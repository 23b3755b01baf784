import { BadRequest, MethodNotAllowed, NotAuthenticated, NotFound } from '@feathersjs/errors';
import { PASSWORD, uniqueEmail } from '../../helpers/accounts';
import { BOTH_STORES, startApp, type RunningApp } from '../../helpers/app-server';
import { call } from '../../helpers/http';
import { pause, RecordingSocket, stockClient, waitFor, type StockClient } from '../../helpers/socket-clients';

const HASH = /\$2[aby]\$\d\d\$|\$scrypt\$/;
const noSecret = (value: unknown) => {
  const text = JSON.stringify(value);
  expect(text).not.toMatch(HASH);
  expect(text).not.toContain('"password"');
};

class MemoryStorage {
  private readonly items = new Map<string, unknown>();
  getItem(key: string) {
    return this.items.get(key);
  }
  setItem(key: string, value: unknown) {
    this.items.set(key, value);
    return value;
  }
  removeItem(key: string) {
    const value = this.items.get(key);
    this.items.delete(key);
    return value;
  }
}

/**
 * The stock Feathers v5 socket client and authentication client, unchanged, against the app:
 * every standard method and markRead, errors revived as their classes, login over the socket,
 * reAuthenticate and logout; and who receives which event.
 */
describe.each(BOTH_STORES)('stock Feathers socket client on %s', (_store, env) => {
  let app: RunningApp;
  const clients: (StockClient | RecordingSocket)[] = [];
  const open = <T extends StockClient | RecordingSocket>(client: T): T => {
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    app = await startApp(env);
  }, 60_000);
  afterAll(async () => {
    for (const client of clients) client.close();
    await app?.close();
  });

  async function signedIn(storage = new MemoryStorage()) {
    const client = open(stockClient(app.url, storage));
    const email = uniqueEmail('socket');
    const user = await client.app.service('users').create({ email, password: PASSWORD });
    const login = await client.app.authenticate({ strategy: 'local', email, password: PASSWORD });
    return { client, user, login, email, storage };
  }

  it('signs up and logs in over the socket; no password anywhere', async () => {
    const { user, login } = await signedIn();
    noSecret(user);
    noSecret(login);
    expect(typeof login.accessToken).toBe('string');
    expect(login.user.email).toBe(user.email);
  });

  it('calls every standard method and the custom method markRead', async () => {
    const { client } = await signedIn();
    const messages = client.app.service('messages') as any;
    const created = await messages.create({ text: 'hello over sockets' });
    const id = created._id ?? created.id;
    expect(created.read).toBe(false);
    expect((await messages.get(id)).text).toBe('hello over sockets');
    const page = await messages.find({ query: { $limit: 500, userId: created.userId, $sort: { createdAt: -1 } } });
    expect(page.limit).toBe(50);
    expect(page.data.map((item: any) => String(item._id ?? item.id))).toContain(String(id));
    expect((await messages.patch(id, { text: 'patched' })).text).toBe('patched');
    expect((await messages.update(id, { text: 'replaced' })).text).toBe('replaced');
    expect((await messages.markRead({ id: String(id) })).read).toBe(true);
    expect((await messages.find({ query: { read: true, userId: created.userId } })).total).toBeGreaterThanOrEqual(1);
    const removed = await messages.remove(id);
    expect(String(removed._id ?? removed.id)).toBe(String(id));
  });

  it('revives errors as their classes', async () => {
    const { client } = await signedIn();
    const messages = client.app.service('messages') as any;
    await expect(messages.get('000000000000000000000000')).rejects.toBeInstanceOf(NotFound);
    await expect(messages.create({ text: '' })).rejects.toBeInstanceOf(BadRequest);
    await expect(messages.find({ query: { $where: 'sleep(1)' } })).rejects.toBeInstanceOf(BadRequest);
    await expect(client.app.service('users').patch(null, { name: 'x' })).rejects.toBeInstanceOf(Error);
    const anonymous = open(stockClient(app.url));
    await expect(anonymous.app.service('messages').find({})).rejects.toBeInstanceOf(NotAuthenticated);
    await expect(anonymous.app.service('nope').find({})).rejects.toBeInstanceOf(NotFound);
    await expect(
      anonymous.app.authenticate({ strategy: 'local', email: 'nobody@example.com', password: 'wrong password' }),
    ).rejects.toBeInstanceOf(NotAuthenticated);
  });

  it('reAuthenticate() with the stored token, on a new connection and forced on the same one', async () => {
    const { storage, login } = await signedIn();
    const again = open(stockClient(app.url, storage));
    const result = await again.app.reAuthenticate();
    expect(result.accessToken).toBe(login.accessToken);
    expect((await again.app.service('messages').find({})).total).toBeGreaterThanOrEqual(0);
    const forced = await again.app.reAuthenticate(true);
    noSecret(forced);
    expect(forced.user.email).toBe(login.user.email);
  });

  it('logout: later calls need authentication again', async () => {
    const { client } = await signedIn();
    await client.app.service('messages').find({});
    await client.app.logout();
    await expect(client.app.service('messages').find({})).rejects.toBeInstanceOf(NotAuthenticated);
  });

  it('a method the service does not list is MethodNotAllowed', async () => {
    const raw = open(new RecordingSocket(app.url));
    await raw.connected();
    const [error] = await raw.call('markRead', 'users', {}, {});
    expect(error).toMatchObject({ name: 'MethodNotAllowed', code: 405 });
    expect(MethodNotAllowed.name).toBe('MethodNotAllowed');
  });

  it("a second client receives the first one's messages events; an anonymous socket receives nothing", async () => {
    const alice = await signedIn();
    const bob = await signedIn();
    const anonymous = open(new RecordingSocket(app.url));
    await anonymous.connected();
    const seenByBob: any[] = [];
    bob.client.app.service('messages').on('created', (message: unknown) => seenByBob.push(message));
    const patchedByBob: any[] = [];
    bob.client.app.service('messages').on('patched', (message: unknown) => patchedByBob.push(message));
    const created = await alice.client.app.service('messages').create({ text: 'for everyone signed in' });
    await alice.client.app.service('messages').patch(created._id ?? created.id, { text: 'edited' });
    await waitFor(() => seenByBob.length === 1 && patchedByBob.length === 1, 'bob to see the message events');
    expect(seenByBob[0].text).toBe('for everyone signed in');
    // Users events reach only that user's own connections.
    const usersSeenByBob: any[] = [];
    bob.client.app.service('users').on('patched', (user: unknown) => usersSeenByBob.push(user));
    const usersSeenByAlice: any[] = [];
    alice.client.app.service('users').on('patched', (user: unknown) => usersSeenByAlice.push(user));
    const aliceId = alice.user._id ?? alice.user.id;
    await alice.client.app.service('users').patch(aliceId, { name: 'Alice' });
    await waitFor(() => usersSeenByAlice.length === 1, 'alice to see her own users event');
    noSecret(usersSeenByAlice[0]);
    // An internal call publishes the published view too (no password).
    await app.composed.app.service('users').patch(aliceId, { name: 'Alice 2' });
    await waitFor(() => usersSeenByAlice.length === 2, 'the internal patch event');
    noSecret(usersSeenByAlice[1]);
    await pause(300);
    expect(usersSeenByBob).toEqual([]);
    expect(anonymous.dataEvents()).toEqual([]);
  });

  it('REST writes reach signed-in sockets too', async () => {
    const { client } = await signedIn();
    const seen: any[] = [];
    client.app.service('messages').on('created', (message: unknown) => seen.push(message));
    const signup = await call(app.url, 'POST', '/users', { body: { email: uniqueEmail('rest'), password: PASSWORD } });
    const login = await call(app.url, 'POST', '/authentication', {
      body: { strategy: 'local', email: signup.body.email, password: PASSWORD },
    });
    await call(app.url, 'POST', '/messages', { token: login.body.accessToken, body: { text: 'via REST' } });
    await waitFor(() => seen.some((message) => message.text === 'via REST'), 'the REST-created message event');
  });
});
