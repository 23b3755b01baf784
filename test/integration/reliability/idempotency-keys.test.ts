import { createJwtSettings, signServiceCredential } from '../../../src';
import { SERVICES } from '../../../src/application/services/service-list';
import { credentialScopes } from '../../../src/composition/credential-scopes';
import { RecordingSocket, waitFor } from '../../helpers/socket-clients';
import { SECRET_A, SECRET_B, serversOnOneDatabase, stop, type Running } from '../../helpers/bound-servers';
import { signUpAndLogIn, type Account } from '../../helpers/accounts';
import { BOTH_STORES, startApp, type RunningApp } from '../../helpers/app-server';
import { call } from '../../helpers/http';

let sequence = 0;
const newKey = () => `"key-${process.pid}-${Date.now()}-${sequence++}"`;

/** How many messages with this text the store holds (every user may read every message). */
async function countOf(url: string, token: string, text: string): Promise<number> {
  const page = await call(url, 'GET', `/messages?text=${encodeURIComponent(text)}&$limit=0`, { token });
  return page.body.total as number;
}

/**
 * Writes with an Idempotency-Key happen once: a repetition gets the first answer (and no second
 * event), concurrent first calls run once, another request with the key is a 422, keys belong to
 * their caller, a failed call frees its key, and keys expire (IDEMPOTENCY_TTL_MS).
 */
describe.each(BOTH_STORES)('Idempotency-Key on %s', (_store, env) => {
  let app: RunningApp;
  let ada: Account;
  let bob: Account;

  beforeAll(async () => {
    app = await startApp({ ...env, IDEMPOTENCY_TTL_MS: '1500' });
    ada = await signUpAndLogIn(app.url);
    bob = await signUpAndLogIn(app.url);
  });
  afterAll(() => app.close());

  it('answers a repeated create with the first answer, marked, and creates once', async () => {
    const key = newKey();
    const first = await call(app.url, 'POST', '/messages', {
      token: ada.token,
      body: { text: 'once only' },
      headers: { 'idempotency-key': key },
    });
    expect(first.status).toBe(201);
    const again = await call(app.url, 'POST', '/messages', {
      token: ada.token,
      body: { text: 'once only' },
      headers: { 'idempotency-key': key },
    });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(await countOf(app.url, ada.token, 'once only')).toBe(1);
  });

  it('runs concurrent first calls with one key once, and all of them get its answer', async () => {
    const key = newKey();
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        call(app.url, 'POST', '/messages', {
          token: ada.token,
          body: { text: 'burst' },
          headers: { 'idempotency-key': key },
        }),
      ),
    );
    for (const answer of answers) expect(answer.status).toBe(201);
    expect(new Set(answers.map((answer) => answer.body._id)).size).toBe(1);
    expect(await countOf(app.url, ada.token, 'burst')).toBe(1);
  });

  it('refuses the key with another request (422), and gives another user nothing of it', async () => {
    const key = newKey();
    expect(
      (
        await call(app.url, 'POST', '/messages', {
          token: ada.token,
          body: { text: 'first body' },
          headers: { 'idempotency-key': key },
        })
      ).status,
    ).toBe(201);
    const other = await call(app.url, 'POST', '/messages', {
      token: ada.token,
      body: { text: 'second body' },
      headers: { 'idempotency-key': key },
    });
    expect(other.status).toBe(422);
    expect(other.body).toMatchObject({
      name: 'Unprocessable',
      message: 'This Idempotency-Key was used with another request',
    });
    // Bob's call with Ada's key and body is his own: it runs, as his.
    const bobs = await call(app.url, 'POST', '/messages', {
      token: bob.token,
      body: { text: 'first body' },
      headers: { 'idempotency-key': key },
    });
    expect(bobs.status).toBe(201);
    expect(bobs.body.userId).toBe(String(bob.user._id));
    expect(bobs.headers.get('idempotent-replayed')).toBeNull();
  });

  it('frees the key of a call that failed, and refuses a malformed key', async () => {
    const key = newKey();
    expect(
      (
        await call(app.url, 'POST', '/messages', {
          token: ada.token,
          body: { text: '' },
          headers: { 'idempotency-key': key },
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await call(app.url, 'POST', '/messages', {
          token: ada.token,
          body: { text: '' },
          headers: { 'idempotency-key': key },
        })
      ).status,
    ).toBe(400);
    const bad = await call(app.url, 'POST', '/messages', {
      token: ada.token,
      body: { text: 'x' },
      headers: { 'idempotency-key': 'has space' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^Idempotency-Key must be 1 to 255 visible ASCII characters/);
  });

  it('makes a patch (a like) happen once, over a socket too, without a second event', async () => {
    const created = await call(app.url, 'POST', '/messages', { token: ada.token, body: { text: 'like me once' } });
    const id = String(created.body._id);
    const socket = new RecordingSocket(app.url);
    try {
      await socket.connected();
      expect(
        (await socket.call('create', 'authentication', { strategy: 'jwt', accessToken: bob.token }))[0],
      ).toBeNull();
      const key = newKey();
      const like = () => socket.call('patch', 'messages', id, { $inc: { likes: -1 } }, { $idempotencyKey: key });
      // An unlike of a message not liked changes nothing; a like then: two distinct requests.
      const [firstError, first] = (await socket.call(
        'patch',
        'messages',
        id,
        { $inc: { likes: 1 } },
        { $idempotencyKey: key },
      )) as [unknown, Record<string, unknown>];
      expect(firstError).toBeNull();
      const [againError, again] = (await socket.call(
        'patch',
        'messages',
        id,
        { $inc: { likes: 1 } },
        { $idempotencyKey: key },
      )) as [unknown, Record<string, unknown>];
      expect(againError).toBeNull();
      expect(again).toEqual(first);
      expect(((await like()) as [{ code: number }])[0].code).toBe(422);
      const stored = await call(app.url, 'GET', `/messages/${id}`, { token: ada.token });
      expect(stored.body.likes).toBe(1);
      await waitFor(() => socket.named('messages patched').some((message) => message._id === id), 'the like is heard');
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(socket.named('messages patched').filter((message) => message._id === id)).toHaveLength(1);
    } finally {
      socket.close();
    }
  });

  it('lets a key expire: after IDEMPOTENCY_TTL_MS the same request runs again', async () => {
    const key = newKey();
    expect(
      (
        await call(app.url, 'POST', '/messages', {
          token: ada.token,
          body: { text: 'expiring' },
          headers: { 'idempotency-key': key },
        })
      ).status,
    ).toBe(201);
    await new Promise((resolve) => setTimeout(resolve, 1_700));
    const later = await call(app.url, 'POST', '/messages', {
      token: ada.token,
      body: { text: 'expiring' },
      headers: { 'idempotency-key': key },
    });
    expect(later.status).toBe(201);
    expect(later.headers.get('idempotent-replayed')).toBeNull();
    expect(await countOf(app.url, ada.token, 'expiring')).toBe(2);
  });
});

/** A retry after a timeout, through a remote binding: B forwards the key; A, which stores the messages, keeps it. */
describe('Idempotency-Key through a remote binding', () => {
  const { start } = serversOnOneDatabase();
  let serverA: Running;
  let serverB: Running;

  beforeAll(async () => {
    serverA = await start({ AUTH_SECRET: SECRET_A });
    const { credential } = signServiceCredential(
      createJwtSettings({ secret: SECRET_A }),
      'server-b',
      credentialScopes(SERVICES, 'messages'),
    );
    serverB = await start({
      AUTH_SECRET: SECRET_B,
      MESSAGES_REMOTE_URL: serverA.url,
      MESSAGES_REMOTE_TOKEN: credential,
    });
  });
  afterAll(async () => {
    await stop(serverB);
    await stop(serverA);
  });

  it('answers a retry whose first try the client gave up on with the first answer, creating once', async () => {
    const author = await signUpAndLogIn(serverB.url);
    const key = newKey();
    // The first try: the client stops waiting at once, the servers carry on.
    const request = () =>
      fetch(`${serverB.url}/messages`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${author.token}`,
          'idempotency-key': key,
        },
        body: JSON.stringify({ text: 'retried after a timeout' }),
        signal: AbortSignal.timeout(1),
      });
    await expect(request()).rejects.toThrow();
    const retried = await call(serverB.url, 'POST', '/messages', {
      token: author.token,
      body: { text: 'retried after a timeout' },
      headers: { 'idempotency-key': key },
    });
    expect(retried.status).toBe(201);
    const again = await call(serverB.url, 'POST', '/messages', {
      token: author.token,
      body: { text: 'retried after a timeout' },
      headers: { 'idempotency-key': key },
    });
    expect(again.body).toEqual(retried.body);
    expect(await countOf(serverB.url, author.token, 'retried after a timeout')).toBe(1);
  });
});
