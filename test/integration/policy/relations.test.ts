import type { HookContext } from '../../../src/application/hooks/hook-context';
import type { Application } from '../../../src/application/app/application';
import { createJwtSettings, signServiceCredential } from '../../../src';
import { SERVICES } from '../../../src/application/services/service-list';
import { credentialScopes } from '../../../src/composition/credential-scopes';
import { PASSWORD, signUpAndLogIn, uniqueEmail, type Account } from '../../helpers/accounts';
import { BOTH_STORES, startApp, type RunningApp } from '../../helpers/app-server';
import { call } from '../../helpers/http';
import { RecordingSocket, waitFor } from '../../helpers/socket-clients';
import { SECRET_A, SECRET_B, serversOnOneDatabase, stop, type Running } from '../../helpers/bound-servers';

const idOf = (record: Record<string, any>) => String(record._id);

/** Counts the calls each method of `path` gets from now on (internal ones included). */
function countCalls(app: Application, path: string): Record<string, number> {
  const counts: Record<string, number> = {};
  const count = (context: HookContext) => {
    counts[context.method] = (counts[context.method] ?? 0) + 1;
  };
  app.service(path).hooks({ before: { find: [count], get: [count] } });
  return counts;
}

async function signUp(url: string, name: string): Promise<Account> {
  const email = uniqueEmail(name.toLowerCase().replace(/[^a-z0-9]/g, ''));
  const created = await call(url, 'POST', '/users', { body: { email, password: PASSWORD, name } });
  expect(created.status).toBe(201);
  const login = await call(url, 'POST', '/authentication', { body: { strategy: 'local', email, password: PASSWORD } });
  expect(login.status).toBe(201);
  return { user: created.body, token: login.body.accessToken };
}

/**
 * A message's `user` (the `users` record named by its `userId`), declared once in the messages
 * definition: every answer and event carries `{ _id, name }`, resolved in one users call per page
 * as the caller, and `$include` chooses.
 */
describe.each(BOTH_STORES)('relations on %s', (_store, env) => {
  let app: RunningApp;
  let authors: Account[];
  const sockets: RecordingSocket[] = [];

  beforeAll(async () => {
    app = await startApp(env);
    authors = [];
    for (let index = 0; index < 10; index += 1) authors.push(await signUp(app.url, `Author ${index}`));
    // 50 messages, 5 by each of the 10 authors, interleaved.
    for (let round = 0; round < 5; round += 1) {
      for (const author of authors)
        expect(
          (await call(app.url, 'POST', '/messages', { token: author.token, body: { text: `round ${round}` } })).status,
        ).toBe(201);
    }
  });

  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await app.close();
  });

  it('answers a page of 50 messages by 10 authors with their names, for one users call', async () => {
    const users = countCalls(app.composed.app, 'users');
    const page = await call(app.url, 'GET', '/messages?$limit=50&$sort[createdAt]=1', { token: authors[0].token });
    expect(page.status).toBe(200);
    expect(page.body.data).toHaveLength(50);
    // One find for the page; the only other users call is the token's user, loaded to authenticate.
    expect(users.find).toBe(1);
    expect(users.get ?? 0).toBeLessThanOrEqual(1);
    const names = new Map(authors.map((author, index) => [idOf(author.user), `Author ${index}`]));
    for (const message of page.body.data) {
      // Only what the relation carries: no e-mail, not even the reader's own.
      expect(message.user).toEqual({ _id: message.userId, name: names.get(message.userId) });
    }
  });

  it(
    'leaves a relation out with `$include=`, names it with ' + '`$include[]=user`, and refuses an unknown one',
    async () => {
      const { token } = authors[1];
      const none = await call(app.url, 'GET', '/messages?$limit=3&$include=', { token });
      expect(none.status).toBe(200);
      for (const message of none.body.data) expect(message).not.toHaveProperty('user');
      const named = await call(app.url, 'GET', '/messages?$limit=3&$include[]=user', { token });
      for (const message of named.body.data)
        expect(message.user).toEqual({ _id: message.userId, name: expect.any(String) });
      const unknown = await call(app.url, 'GET', '/messages?$include[]=author', { token });
      expect(unknown.status).toBe(400);
      expect(unknown.body.message).toBe("'author' is not a relation of this service ($include takes: user)");
      // The relation needs its field: a `$select` without `userId` answers without it.
      const selected = await call(app.url, 'GET', '/messages?$limit=1&$select[]=text', { token });
      expect(selected.body.data[0]).not.toHaveProperty('user');
      // One record and a write answer it too; a write with `$include=` answers without it.
      const one = await call(app.url, 'GET', `/messages/${idOf(named.body.data[0])}`, { token });
      expect(one.body.user).toEqual({ _id: named.body.data[0].userId, name: expect.any(String) });
      const created = await call(app.url, 'POST', '/messages', { token, body: { text: 'with me' } });
      expect(created.body.user).toEqual({ _id: idOf(authors[1].user), name: 'Author 1' });
      const quiet = await call(app.url, 'POST', '/messages?$include=', { token, body: { text: 'without me' } });
      expect(quiet.status).toBe(201);
      expect(quiet.body).not.toHaveProperty('user');
    },
  );

  it('carries the author in socket answers and in every event, also of a write that asked for none', async () => {
    const listener = new RecordingSocket(app.url);
    sockets.push(listener);
    await listener.connected();
    const [loginError] = await listener.call('create', 'authentication', {
      strategy: 'jwt',
      accessToken: authors[2].token,
    });
    expect(loginError).toBeNull();
    const [error, page] = (await listener.call('find', 'messages', { $limit: 2 })) as [
      unknown,
      { data: Record<string, any>[] },
    ];
    expect(error).toBeNull();
    for (const message of page.data) expect(message.user).toEqual({ _id: message.userId, name: expect.any(String) });
    const created = await call(app.url, 'POST', '/messages?$include=', {
      token: authors[3].token,
      body: { text: 'heard with its author' },
    });
    const heard = () => listener.named('messages created').find((message) => message._id === idOf(created.body));
    await waitFor(() => heard() !== undefined, 'the listener hears the message');
    expect(heard().user).toEqual({ _id: idOf(authors[3].user), name: 'Author 3' });
    // The raw frames never hold more of a user than the relation carries.
    expect(JSON.stringify(listener.events)).not.toContain('@example.com');
  });

  it('answers null for an author who is gone', async () => {
    const leaving = await signUpAndLogIn(app.url);
    const created = await call(app.url, 'POST', '/messages', { token: leaving.token, body: { text: 'left behind' } });
    expect((await call(app.url, 'DELETE', `/users/${idOf(leaving.user)}`, { token: leaving.token })).status).toBe(200);
    const seen = await call(app.url, 'GET', `/messages/${idOf(created.body)}`, { token: authors[4].token });
    expect(seen.status).toBe(200);
    expect(seen.body.user).toBeNull();
  });
});

/**
 * Through remote bindings: B's `messages` is A's (A resolves the relation and answers B's caller),
 * C's `users` is A's (C resolves the relation with one call to A, as the caller).
 */
describe('relations through remote bindings', () => {
  const { start } = serversOnOneDatabase();
  let serverA: Running;
  let serverB: Running;
  let serverC: Running;
  let author: { id: string; tokenA: string; tokenB: string };
  const sockets: RecordingSocket[] = [];

  beforeAll(async () => {
    serverA = await start({ AUTH_SECRET: SECRET_A });
    // B hears A's messages events over a socket to A.
    serverA.composed.realtime.attach(serverA.http.server);
    const settings = createJwtSettings({ secret: SECRET_A });
    const forB = signServiceCredential(settings, 'server-b', credentialScopes(SERVICES, 'messages')).credential;
    const forC = signServiceCredential(settings, 'server-c', credentialScopes(SERVICES, 'users')).credential;
    serverB = await start({ AUTH_SECRET: SECRET_B, MESSAGES_REMOTE_URL: serverA.url, MESSAGES_REMOTE_TOKEN: forB });
    serverB.composed.realtime.attach(serverB.http.server);
    // Users bound elsewhere: the same secret, logins where the users are stored.
    serverC = await start({ AUTH_SECRET: SECRET_A, USERS_REMOTE_URL: serverA.url, USERS_REMOTE_TOKEN: forC });
    const email = uniqueEmail('remote');
    const created = await call(serverA.url, 'POST', '/users', {
      body: { email, password: PASSWORD, name: 'Remote Author' },
    });
    const logIn = async (server: Running) =>
      (await call(server.url, 'POST', '/authentication', { body: { strategy: 'local', email, password: PASSWORD } }))
        .body.accessToken as string;
    author = { id: idOf(created.body), tokenA: await logIn(serverA), tokenB: await logIn(serverB) };
    for (let index = 0; index < 3; index += 1)
      expect(
        (await call(serverA.url, 'POST', '/messages', { token: author.tokenA, body: { text: `remote ${index}` } }))
          .status,
      ).toBe(201);
  });

  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await serverB?.composed.realtime.close();
    await serverA?.composed.realtime.close();
    await stop(serverC);
    await stop(serverB);
    await stop(serverA);
  });

  it("answers B's callers with the author A resolved, and B's sockets hear it in events", async () => {
    const page = await call(serverB.url, 'GET', '/messages?$limit=3', { token: author.tokenB });
    expect(page.status).toBe(200);
    for (const message of page.body.data)
      expect(message.user).toEqual({ _id: message.userId, name: expect.any(String) });
    const none = await call(serverB.url, 'GET', '/messages?$limit=1&$include=', { token: author.tokenB });
    expect(none.body.data[0]).not.toHaveProperty('user');
    const listener = new RecordingSocket(serverB.url);
    sockets.push(listener);
    await listener.connected();
    expect(
      (await listener.call('create', 'authentication', { strategy: 'jwt', accessToken: author.tokenB }))[0],
    ).toBeNull();
    const created = await call(serverB.url, 'POST', '/messages', { token: author.tokenB, body: { text: 'through B' } });
    expect(created.body.user).toEqual({ _id: author.id, name: 'Remote Author' });
    const heard = () => listener.named('messages created').find((message) => message._id === created.body._id);
    await waitFor(() => heard() !== undefined, "B's socket hears the message");
    expect(heard().user).toEqual({ _id: author.id, name: 'Remote Author' });
  });

  it("resolves C's pages with one call to A's users, as the caller", async () => {
    const usersOnA = countCalls(serverA.composed.app, 'users');
    const page = await call(serverC.url, 'GET', '/messages?$limit=3', { token: author.tokenA });
    expect(page.status).toBe(200);
    for (const message of page.body.data)
      expect(message.user).toEqual({ _id: message.userId, name: expect.any(String) });
    // One find for the page (the token's user is loaded by its own get).
    expect(usersOnA.find).toBe(1);
  });
});
