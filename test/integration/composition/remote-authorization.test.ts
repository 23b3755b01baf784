import 'reflect-metadata';
import { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import pino from 'pino';
import { createJwtSettings, signServiceCredential } from '../../../src';
import { SERVICES } from '../../../src/application/services/service-list';
import { credentialScopes } from '../../../src/composition/credential-scopes';
import {
  account,
  call,
  SECRET_A,
  SECRET_B,
  serversOnOneDatabase,
  stop,
  type Running,
} from '../../helpers/bound-servers';

/** What `npm run service-credential -- server-b --services messages` issues. */
const MESSAGES_SCOPE = credentialScopes(SERVICES, 'messages');
const { start } = serversOnOneDatabase();

type Actor = 'owner' | 'other' | 'anonymous';
const METHODS = ['find', 'get', 'create', 'update', 'patch', 'like', 'remove', 'markRead'] as const;

/** Every messages method for every actor, each on a fresh message of the owner: the statuses. */
async function authorizationMatrix(
  url: string,
  tokens: Record<Actor, string | undefined>,
): Promise<Record<string, number>> {
  const statuses: Record<string, number> = {};
  for (const actor of ['owner', 'other', 'anonymous'] as const) {
    for (const method of METHODS) {
      const message = await call(url, 'POST', '/messages', { token: tokens.owner, body: { text: 'mine' } });
      expect(message.status).toBe(201);
      const item = `/messages/${message.body._id}`;
      const token = tokens[actor];
      const answer = {
        find: () => call(url, 'GET', '/messages?$limit=5', { token }),
        get: () => call(url, 'GET', item, { token }),
        create: () => call(url, 'POST', '/messages', { token, body: { text: 'new' } }),
        update: () => call(url, 'PUT', item, { token, body: { text: 'replaced' } }),
        patch: () => call(url, 'PATCH', item, { token, body: { text: 'edited' } }),
        like: () => call(url, 'PATCH', item, { token, body: { $inc: { likes: 1 } } }),
        remove: () => call(url, 'DELETE', item, { token }),
        markRead: () =>
          call(url, 'POST', '/messages', {
            token,
            body: { id: message.body._id },
            headers: { 'x-service-method': 'markRead' },
          }),
      }[method];
      statuses[`${actor} ${method}`] = (await answer()).status;
    }
  }
  return statuses;
}

describe(
  'a service bound to another server keeps every rule (MESSAGES_REMOTE_URL with a ' +
    'service credential; users shared through one database)',
  () => {
    let serverA: Running | undefined;
    let serverB: Running | undefined;
    let credentialId: string;
    let credential: string;
    const logLines: Array<{ level: number; msg: string }> = [];

    beforeAll(async () => {
      // A stores messages; its user tokens last 2 s, the service credential does not expire.
      serverA = await start({ AUTH_SECRET: SECRET_A, JWT_EXPIRES_IN: '2s' });
      const issued = signServiceCredential(createJwtSettings({ secret: SECRET_A }), 'server-b', MESSAGES_SCOPE);
      credentialId = issued.credentialId;
      credential = issued.credential;
      const sink = new Writable({
        write(chunk, _encoding, done) {
          logLines.push(JSON.parse(String(chunk)));
          done();
        },
      });
      serverB = await start(
        { AUTH_SECRET: SECRET_B, MESSAGES_REMOTE_URL: serverA.url, MESSAGES_REMOTE_TOKEN: issued.credential },
        { logger: pino({ level: 'info' }, sink) },
      );
    });
    afterAll(async () => {
      await stop(serverB);
      await stop(serverA);
    });

    it('answers a user of B exactly as a user of A, for every method and actor', async () => {
      const onA = {
        owner: (await account(serverA!.url, 'owner@a.example')).token,
        other: (await account(serverA!.url, 'other@a.example')).token,
        anonymous: undefined,
      };
      const onB = {
        owner: (await account(serverB!.url, 'owner@b.example')).token,
        other: (await account(serverB!.url, 'other@b.example')).token,
        anonymous: undefined,
      };
      const local = await authorizationMatrix(serverA!.url, onA);
      const remote = await authorizationMatrix(serverB!.url, onB);
      expect(remote).toEqual(local);
      // The rules the matrix shows, spelled out once.
      expect(local).toMatchObject({
        'owner update': 200,
        'owner patch': 200,
        'owner remove': 200,
        'owner markRead': 200,
        'other find': 200,
        'other get': 200,
        'other create': 201,
        'other like': 200,
        // Another user's message is readable, so changing it is a 403 (the custom method finds none to mark: 404).
        'other update': 403,
        'other patch': 403,
        'other remove': 403,
        'other markRead': 404,
        'anonymous find': 401,
        'anonymous get': 401,
        'anonymous create': 401,
        'anonymous like': 401,
      });
    });

    it(
      'stores a message created through B as owned by the B user who ' +
        'created it, with server-owned fields kept on PUT',
      async () => {
        const ann = await account(serverB!.url, 'ann@b.example');
        const created = await call(serverB!.url, 'POST', '/messages', {
          token: ann.token,
          body: { text: 'through B' },
        });
        expect(created.body).toMatchObject({ text: 'through B', userId: ann.id, likes: 0, read: false });
        const stored = await serverA!.composed.app.service('messages').get(created.body._id);
        expect(stored.userId).toBe(ann.id);
        await call(serverB!.url, 'PATCH', `/messages/${created.body._id}`, {
          token: ann.token,
          body: { $inc: { likes: 1 } },
        });
        const replaced = await call(serverB!.url, 'PUT', `/messages/${created.body._id}`, {
          token: ann.token,
          body: { text: 'replaced' },
        });
        expect(replaced.body).toMatchObject({
          text: 'replaced',
          userId: ann.id,
          likes: 1,
          likedBy: [ann.id],
          createdAt: created.body.createdAt,
        });
      },
    );

    it(
      'reads and writes reach A, custom methods included; B validates first; ' +
        "A's errors reach B's callers; users stay on B",
      async () => {
        const onA = await account(serverA!.url, 'writer@a.example');
        const reader = await account(serverB!.url, 'reader@b.example');
        const storedOnA = await call(serverA!.url, 'POST', '/messages', {
          token: onA.token,
          body: { text: 'stored on A' },
        });
        expect(
          (await call(serverB!.url, 'GET', '/messages?text=stored%20on%20A', { token: reader.token })).body,
        ).toMatchObject({ total: 1, data: [{ _id: storedOnA.body._id }] });
        const throughB = await call(serverB!.url, 'POST', '/messages', {
          token: reader.token,
          body: { text: 'written through B' },
        });
        await call(serverB!.url, 'POST', '/messages', {
          token: reader.token,
          body: { id: throughB.body._id },
          headers: { 'x-service-method': 'markRead' },
        });
        expect(await serverA!.composed.app.service('messages').get(throughB.body._id)).toMatchObject({
          text: 'written through B',
          read: true,
        });
        expect(
          (await call(serverB!.url, 'POST', '/messages', { token: reader.token, body: { text: 42 } })).status,
        ).toBe(400);
        expect(
          (await call(serverB!.url, 'GET', '/messages/0123456789abcdef01234567', { token: reader.token })).body,
        ).toMatchObject({ name: 'NotFound', code: 404 });
        // Users stay on B: the reader sees their own e-mail there, and nobody else's.
        const users = (await call(serverB!.url, 'GET', `/users?$limit=50`, { token: reader.token })).body as {
          data: { _id: string; email?: string }[];
        };
        expect(users.data.filter((user) => user.email !== undefined)).toEqual([
          expect.objectContaining({ email: 'reader@b.example' }),
        ]);
      },
    );

    it("keeps working across the remote's token lifetime (2 s tokens on A, 6 s later)", async () => {
      const bob = await account(serverB!.url, 'bob@b.example');
      expect(
        (await call(serverB!.url, 'POST', '/messages', { token: bob.token, body: { text: 'before' } })).status,
      ).toBe(201);
      await sleep(6_000);
      expect(
        (await call(serverB!.url, 'POST', '/messages', { token: bob.token, body: { text: 'after 6 s' } })).status,
      ).toBe(201);
      expect((await call(serverB!.url, 'GET', '/ready')).status).toBe(200);
    }, 20_000);

    it('never lets an ordinary user token act for someone else', async () => {
      const mallory = await account(serverA!.url, 'mallory@a.example');
      const victim = await account(serverA!.url, 'victim@a.example');
      const theirs = await call(serverA!.url, 'POST', '/messages', { token: victim.token, body: { text: 'victim' } });
      const forged = await call(serverA!.url, 'PATCH', `/messages/${theirs.body._id}`, {
        token: mallory.token,
        body: { text: 'hijacked' },
        headers: { 'x-on-behalf-of': victim.id },
      });
      // Acting as themself, not as the victim: the message is readable but not theirs to change.
      expect(forged.status).toBe(403);
      expect((await call(serverA!.url, 'GET', `/messages/${theirs.body._id}`, { token: victim.token })).body.text).toBe(
        'victim',
      );
    });

    it(
      'reports a remote that is down: 503 without internal details, ' + '/ready naming it, one warning per outage',
      async () => {
        const carol = await account(serverB!.url, 'carol@b.example');
        const warningsBefore = logLines.filter((line) => line.level === 40).length;
        await stop(serverA);
        serverA = undefined;
        for (let attempt = 0; attempt < 3; attempt++) {
          const answer = await call(serverB!.url, 'POST', '/messages', {
            token: carol.token,
            body: { text: 'while A is down' },
          });
          expect(answer.status).toBe(503);
          expect(answer.body).toEqual({
            name: 'Unavailable',
            message: "The 'messages' service is unavailable",
            code: 503,
            className: 'unavailable',
          });
          expect(answer.text).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|address/);
        }
        const ready = await call(serverB!.url, 'GET', '/ready');
        expect(ready.status).toBe(503);
        expect(ready.body.message).toBe("The 'messages' service is unavailable");
        const warnings = logLines.filter((line) => line.level === 40).slice(warningsBefore);
        expect(warnings.map((line) => line.msg)).toEqual(["remote service 'messages' is unreachable"]);
        expect(JSON.stringify(logLines)).not.toContain(carol.token);
      },
    );

    it('refuses a revoked credential (reported like an outage) and accepts a fresh one', async () => {
      const a = await start({ AUTH_SECRET: SECRET_A, SERVICE_CREDENTIALS_REVOKED: credentialId });
      const withRevoked = await start({
        AUTH_SECRET: SECRET_B,
        MESSAGES_REMOTE_URL: a.url,
        MESSAGES_REMOTE_TOKEN: credential,
      });
      const withFresh = await start({
        AUTH_SECRET: SECRET_B,
        MESSAGES_REMOTE_URL: a.url,
        MESSAGES_REMOTE_TOKEN: signServiceCredential(
          createJwtSettings({ secret: SECRET_A }),
          'server-b',
          MESSAGES_SCOPE,
        ).credential,
      });
      try {
        const erin = await account(withRevoked.url, 'erin@b.example');
        expect(
          (await call(withRevoked.url, 'POST', '/messages', { token: erin.token, body: { text: 'refused' } })).status,
        ).toBe(503);
        expect((await call(withRevoked.url, 'GET', '/ready')).body).toMatchObject({
          code: 503,
          message: "The 'messages' service is unavailable",
        });
        const dave = await account(withFresh.url, 'dave@b.example');
        expect(
          (await call(withFresh.url, 'POST', '/messages', { token: dave.token, body: { text: 'accepted' } })).status,
        ).toBe(201);
      } finally {
        await stop(withFresh);
        await stop(withRevoked);
        await stop(a);
      }
    });
  },
);
