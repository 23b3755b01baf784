import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createJwtSettings, listenHttp, signServiceCredential } from '../../../src';
import { SERVICES } from '../../../src/application/services/service-list';
import { composeApplication } from '../../../src/composition-root';
import { credentialScopes } from '../../../src/composition/credential-scopes';
import { loadConfig } from '../../../src/composition/load-config';
import { revokeCredential } from '../../../src/composition/revoked-credentials';
import { databaseUrl, startMongoTestServer, type MongoTestServer } from '../../helpers/mongo-test-server';
import { account, call, PASSWORD, SECRET_A, SECRET_B, stop, type Running } from '../../helpers/bound-servers';
import { RecordingSocket, waitFor } from '../../helpers/socket-clients';

/**
 * B's `messages` is bound to A: B hears A's messages events through a subscription with its
 * service credential and delivers them under its own publishers and policies. A client on B hears
 * a message created on A, once; one created through B, once; and the stream comes back after A
 * was down.
 */
describe("a remote binding carries the storing server's events", () => {
  let mongo: MongoTestServer;
  let databaseOfBoth: string;
  let serverA: Running;
  let serverB: Running;
  let credential: string;
  const sockets: RecordingSocket[] = [];

  async function startServer(env: Record<string, string>, port = 0): Promise<Running> {
    const config = loadConfig({
      NODE_ENV: 'test',
      STORE: 'mongo',
      MONGODB_URL: databaseOfBoth,
      DATA_DIR: ':memory:',
      PASSWORD_HASH_COST: '10',
      ...env,
    });
    const composed = await composeApplication(config, { authentication: { rateLimit: false, signUpRateLimit: false } });
    const http = await listenHttp(composed.http, { host: '127.0.0.1', port });
    composed.realtime.attach(http.server);
    return { composed, http, url: http.url };
  }

  async function stopServer(server: Running | undefined): Promise<void> {
    if (!server) return;
    await server.composed.realtime.close();
    await stop(server);
  }

  beforeAll(async () => {
    mongo = await startMongoTestServer();
    databaseOfBoth = databaseUrl(mongo.url, mongo.db().databaseName);
    serverA = await startServer({ AUTH_SECRET: SECRET_A });
    credential = signServiceCredential(
      createJwtSettings({ secret: SECRET_A }),
      'server-b',
      credentialScopes(SERVICES, 'messages'),
    ).credential;
    serverB = await startServer({
      AUTH_SECRET: SECRET_B,
      MESSAGES_REMOTE_URL: serverA.url,
      MESSAGES_REMOTE_TOKEN: credential,
    });
  });

  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await stopServer(serverB);
    await stopServer(serverA);
    await mongo?.close();
  });

  /** A user of both servers (one database): a token of each. */
  async function person(name: string): Promise<{ id: string; tokenA: string; tokenB: string }> {
    const email =
      `${name.toLowerCase()}-${Date.now().toString(36)}` + `${Math.random().toString(36).slice(2, 6)}@example.com`;
    const created = await call(serverA.url, 'POST', '/users', { body: { email, password: PASSWORD, name } });
    expect(created.status).toBe(201);
    const logIn = async (server: Running) =>
      (await call(server.url, 'POST', '/authentication', { body: { strategy: 'local', email, password: PASSWORD } }))
        .body.accessToken as string;
    return { id: String(created.body._id), tokenA: await logIn(serverA), tokenB: await logIn(serverB) };
  }

  async function listenerOnB(token: string): Promise<RecordingSocket> {
    const socket = new RecordingSocket(serverB.url);
    sockets.push(socket);
    await socket.connected();
    expect((await socket.call('create', 'authentication', { strategy: 'jwt', accessToken: token }))[0]).toBeNull();
    return socket;
  }

  const heard = (socket: RecordingSocket, event: string, id: string) =>
    socket.named(`messages ${event}`).filter((message) => message._id === id);

  it("delivers a message created on A to a client on B within 1 s, once, as B's policy shows it", async () => {
    const ada = await person('Ada');
    const bob = await person('Bob');
    const adaOnB = await listenerOnB(ada.tokenB);
    const bobOnB = await listenerOnB(bob.tokenB);
    const posted = Date.now();
    const created = await call(serverA.url, 'POST', '/messages', { token: ada.tokenA, body: { text: 'from A' } });
    expect(created.status).toBe(201);
    const id = String(created.body._id);
    await waitFor(
      () => heard(bobOnB, 'created', id).length > 0,
      "Bob's socket on B hears the message created on A",
      1_000,
    );
    expect(Date.now() - posted).toBeLessThan(1_000);
    expect(heard(bobOnB, 'created', id)[0]).toMatchObject({
      text: 'from A',
      user: { _id: ada.id, name: 'Ada' },
      liked: false,
    });
    // A like on A: its author sees who liked on B, the liker sees that they did; neither twice.
    expect(
      (await call(serverA.url, 'PATCH', `/messages/${id}`, { token: bob.tokenA, body: { $inc: { likes: 1 } } })).status,
    ).toBe(200);
    await waitFor(
      () => heard(adaOnB, 'patched', id).length > 0 && heard(bobOnB, 'patched', id).length > 0,
      'both hear the like',
    );
    expect(heard(adaOnB, 'patched', id)[0]).toMatchObject({ likes: 1, likedBy: [bob.id], liked: false });
    expect(heard(bobOnB, 'patched', id)[0]).toMatchObject({ likes: 1, liked: true });
    expect(heard(bobOnB, 'patched', id)[0]).not.toHaveProperty('likedBy');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(heard(bobOnB, 'created', id)).toHaveLength(1);
    expect(heard(adaOnB, 'patched', id)).toHaveLength(1);
  });

  it('delivers a message created through B once, not once from B and once from A', async () => {
    const cy = await person('Cy');
    const cyOnB = await listenerOnB(cy.tokenB);
    const created = await call(serverB.url, 'POST', '/messages', { token: cy.tokenB, body: { text: 'through B' } });
    expect(created.status).toBe(201);
    const id = String(created.body._id);
    await waitFor(() => heard(cyOnB, 'created', id).length > 0, 'Cy hears their own message');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(heard(cyOnB, 'created', id)).toHaveLength(1);
  });

  it('refuses a subscription without a valid service credential', async () => {
    const { io } = await import('socket.io-client');
    for (const bad of ['not-a-token', (await person('Dee')).tokenA]) {
      const socket = io(serverA.url, {
        transports: ['websocket'],
        auth: { serviceCredential: bad },
        reconnection: false,
      });
      const refusal = await new Promise<Error>((resolve) => socket.once('connect_error', resolve));
      socket.close();
      expect(refusal.message).toMatch(/service credential|Invalid|jwt|token/i);
    }
  });

  it('hears A again after A was down and came back on its address', async () => {
    const eve = await person('Eve');
    const eveOnB = await listenerOnB(eve.tokenB);
    const port = Number(new URL(serverA.url).port);
    await stopServer(serverA);
    serverA = await startServer({ AUTH_SECRET: SECRET_A }, port);
    // The subscription reconnects by itself (backing off up to 5 s).
    const deadline = Date.now() + 10_000;
    let id = '';
    while (Date.now() < deadline && (id === '' || heard(eveOnB, 'created', id).length === 0)) {
      const created = await call(serverA.url, 'POST', '/messages', {
        token: eve.tokenA,
        body: { text: 'after the restart' },
      });
      id = String(created.body._id);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(heard(eveOnB, 'created', id)).toHaveLength(1);
  }, 20_000);

  it('ends an open subscription whose service credential is revoked, and refuses it again', async () => {
    // A server whose revocation file `npm run service-credential -- --revoke <id>` appends to.
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'revocation-'));
    const storing = await startServer({ AUTH_SECRET: SECRET_A, DATA_DIR: dataDir });
    const { io } = await import('socket.io-client');
    const issued = signServiceCredential(
      createJwtSettings({ secret: SECRET_A }),
      'server-c',
      credentialScopes(SERVICES, 'messages'),
    );
    const subscribe = () =>
      io(storing.url, {
        transports: ['websocket'],
        auth: { serviceCredential: issued.credential, services: ['messages'] },
        reconnection: false,
      });
    const subscription = subscribe();
    try {
      const heardIds: string[] = [];
      subscription.on('messages created', (message: { _id: string }) => heardIds.push(String(message._id)));
      let disconnectReason = '';
      subscription.on('disconnect', (reason) => (disconnectReason = reason));
      await new Promise<void>((resolve, reject) =>
        subscription.once('connect', () => resolve()).once('connect_error', reject),
      );
      const fay = await account(storing.url, `fay-${Date.now().toString(36)}@example.com`);
      const post = async (text: string) =>
        String((await call(storing.url, 'POST', '/messages', { token: fay.token, body: { text } })).body._id);
      const before = await post('before the revocation');
      await waitFor(() => heardIds.includes(before), 'the subscription to hear a message');

      revokeCredential(dataDir, issued.credentialId);
      // Checked again every 2 s, the file read again within a second.
      await waitFor(() => disconnectReason !== '', 'the storing server to end the subscription', 5_000);
      expect(disconnectReason).toBe('io server disconnect');
      const after = await post('after the revocation');
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(heardIds).not.toContain(after);

      const again = subscribe();
      const refusal = await new Promise<Error>((resolve) => again.once('connect_error', resolve));
      again.close();
      expect(refusal.message).toMatch(/revoked/i);
    } finally {
      subscription.close();
      await stopServer(storing);
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 20_000);
});
