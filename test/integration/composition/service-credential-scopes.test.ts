import 'reflect-metadata';
import { Writable } from 'node:stream';
import jwt from 'jsonwebtoken';
import pino from 'pino';
import { createJwtSettings, signServiceCredential } from '../../../src';
import { SERVICES } from '../../../src/application/services/service-list';
import { credentialScopes } from '../../../src/composition/credential-scopes';
import {
  account,
  call,
  PASSWORD,
  SECRET_A,
  SECRET_B,
  serversOnOneDatabase,
  stop,
  type Running,
} from '../../helpers/bound-servers';

const settingsA = createJwtSettings({ secret: SECRET_A });
/** The credential A issued to B for B's `messages` binding, as an attacker who got hold of it uses it. */
const messagesCredential = signServiceCredential(settingsA, 'server-b', credentialScopes(SERVICES, 'messages'));
/** A credential that may also call `users` (say, for a binding of it): still no account takeover. */
const usersCredential = signServiceCredential(settingsA, 'server-c', credentialScopes(SERVICES, 'users,messages'));

/** A credential as A issued them before they named services: signed and not revoked, but without scopes. */
function unscopedCredential(): { credential: string; credentialId: string } {
  const credentialId = '0f8fad5b-d9cb-469f-a165-70867728950e';
  const credential = jwt.sign({}, SECRET_A, {
    algorithm: 'HS256',
    audience: 'hexa-services',
    issuer: 'hexa-services',
    subject: 'server-old',
    jwtid: credentialId,
    header: { alg: 'HS256', typ: 'service' },
  });
  return { credential, credentialId };
}

const { start } = serversOnOneDatabase();

describe('a service credential grants what its binding needs, nothing more (issue 25, finding 1)', () => {
  let serverA: Running | undefined;
  const logLines: Array<{ level: number; msg: string }> = [];
  let victim: { id: string; token: string };
  let mallory: { id: string; token: string };
  let victimMessage: string;

  beforeAll(async () => {
    const sink = new Writable({
      write(chunk, _encoding, done) {
        logLines.push(JSON.parse(String(chunk)));
        done();
      },
    });
    serverA = await start({ AUTH_SECRET: SECRET_A }, { logger: pino({ level: 'info' }, sink) });
    victim = await account(serverA.url, 'victim@example.com');
    mallory = await account(serverA.url, 'mallory@example.com');
    victimMessage = (
      await call(serverA.url, 'POST', '/messages', { token: victim.token, body: { text: "the victim's" } })
    ).body._id;
  });
  afterAll(() => stop(serverA));

  const withCredential = (
    credential: string,
    onBehalfOf?: string,
  ): { token: string; headers: Record<string, string> } => ({
    token: credential,
    headers: onBehalfOf === undefined ? {} : { 'x-on-behalf-of': onBehalfOf },
  });

  it(
    'cannot list accounts: users is outside a messages credential, ' + 'and without X-On-Behalf-Of nothing is called',
    async () => {
      const outside = await call(serverA!.url, 'GET', '/users', withCredential(messagesCredential.credential));
      expect(outside.status).toBe(403);
      expect(outside.body).toMatchObject({ name: 'Forbidden', data: { reason: 'outside-scope' } });
      expect(outside.text).not.toContain('@example.com');
      const noUser = await call(serverA!.url, 'GET', '/users', withCredential(usersCredential.credential));
      expect(noUser.status).toBe(403);
      expect(noUser.body).toMatchObject({ data: { reason: 'on-behalf-of-required' } });
      // Acting for a user reads what that user may read: every account's id and name, their own e-mail only.
      const asMallory = await call(
        serverA!.url,
        'GET',
        '/users',
        withCredential(usersCredential.credential, mallory.id),
      );
      expect(asMallory.status).toBe(200);
      expect(asMallory.body.data.filter((user: { email?: string }) => user.email !== undefined)).toEqual([
        expect.objectContaining({ email: 'mallory@example.com' }),
      ]);
      expect(asMallory.text).not.toContain('victim@example.com');
      expect(asMallory.text).not.toContain('password');
      const victimAccount = await call(
        serverA!.url,
        'GET',
        `/users/${victim.id}`,
        withCredential(usersCredential.credential, mallory.id),
      );
      expect(victimAccount.text).not.toContain('victim@example.com');
    },
  );

  it('cannot change a password, an e-mail or a role, not even for the user it names', async () => {
    const attempts = [
      { method: 'PATCH', body: { password: 'attacker password 1' } },
      { method: 'PATCH', body: { email: 'attacker@example.com' } },
      { method: 'PUT', body: { email: 'victim@example.com', password: 'attacker password 1' } },
    ];
    for (const attempt of attempts) {
      const answer = await call(serverA!.url, attempt.method, `/users/${victim.id}`, {
        ...withCredential(usersCredential.credential, victim.id),
        body: attempt.body,
      });
      expect({ attempt, status: answer.status }).toEqual({ attempt, status: 403 });
    }
    // Users have no roles field yet: the DTO refuses it for everyone (400) before the credential rule would (403).
    const roles = await call(serverA!.url, 'PATCH', `/users/${victim.id}`, {
      ...withCredential(usersCredential.credential, victim.id),
      body: { roles: ['admin'] },
    });
    expect([400, 403]).toContain(roles.status);
    // The takeover of the finding: the attacker's password does not log in, the victim's still does.
    const asAttacker = await call(serverA!.url, 'POST', '/authentication', {
      body: { strategy: 'local', email: 'victim@example.com', password: 'attacker password 1' },
    });
    expect(asAttacker.status).toBe(401);
    const asVictim = await call(serverA!.url, 'POST', '/authentication', {
      body: { strategy: 'local', email: 'victim@example.com', password: PASSWORD },
    });
    expect(asVictim.status).toBe(201);
    // What the user may change on their own account still goes through.
    expect(
      (
        await call(serverA!.url, 'PATCH', `/users/${victim.id}`, {
          ...withCredential(usersCredential.credential, victim.id),
          body: { name: 'Vic' },
        })
      ).status,
    ).toBe(200);
  });

  it('applies the owner rules of the user it names, and needs one', async () => {
    const path = `/messages/${victimMessage}`;
    for (const [method, body] of [
      ['PATCH', { text: 'hijacked' }],
      ['DELETE', undefined],
      ['PUT', { text: 'hijacked' }],
    ] as const) {
      expect(
        (await call(serverA!.url, method, path, { ...withCredential(messagesCredential.credential), body })).status,
      ).toBe(403);
      // Mallory may read the victim's message but not change it.
      expect(
        (await call(serverA!.url, method, path, { ...withCredential(messagesCredential.credential, mallory.id), body }))
          .status,
      ).toBe(403);
    }
    const markRead = await call(serverA!.url, 'POST', '/messages', {
      ...withCredential(messagesCredential.credential, mallory.id),
      body: { id: victimMessage },
      headers: { 'x-on-behalf-of': mallory.id, 'x-service-method': 'markRead' },
    });
    expect(markRead.status).toBe(404);
    expect(await serverA!.composed.app.service('messages').get(victimMessage)).toMatchObject({
      text: "the victim's",
      read: false,
    });
    // Acting for the owner is what a binding does for its signed-in user.
    expect(
      (
        await call(serverA!.url, 'PATCH', path, {
          ...withCredential(messagesCredential.credential, victim.id),
          body: { text: 'edited by its owner' },
        })
      ).status,
    ).toBe(200);
  });

  it('acts only for users that exist on this server', async () => {
    for (const ghost of ['ghost-user', '0123456789abcdef01234567']) {
      const answer = await call(serverA!.url, 'POST', '/messages', {
        ...withCredential(messagesCredential.credential, ghost),
        body: { text: 'from a ghost' },
      });
      expect(answer.status).toBe(403);
      expect(answer.body).toMatchObject({ name: 'Forbidden', data: { reason: 'unknown-user' } });
    }
    const stored = await serverA!.composed.app
      .service('messages')
      .find({ query: { text: 'from a ghost' }, paginate: false });
    expect(stored).toEqual([]);
  });

  it(
    'refuses a credential issued without scopes, with a log line that ' +
      'says how to re-issue it (once per credential)',
    async () => {
      const { credential, credentialId } = unscopedCredential();
      for (let attempt = 0; attempt < 3; attempt++) {
        const answer = await call(serverA!.url, 'GET', '/messages', withCredential(credential, victim.id));
        expect(answer.status).toBe(401);
      }
      const lines = logLines.filter((line) => line.level === 40 && line.msg.includes(credentialId));
      expect(lines).toHaveLength(1);
      expect(lines[0].msg).toContain('npm run service-credential -- server-old --services');
      expect(lines[0].msg).toContain(`npm run service-credential -- --revoke ${credentialId}`);
    },
  );

  it('is never a login, not even with X-On-Behalf-Of', async () => {
    const login = await call(serverA!.url, 'POST', '/authentication', {
      body: { strategy: 'jwt', accessToken: messagesCredential.credential },
      headers: { 'x-on-behalf-of': victim.id },
    });
    expect(login.status).toBe(401);
    expect(login.text).not.toContain('accessToken":"ey');
  });
});

describe('revocation ids compare whatever their case (issue 25, finding 9)', () => {
  it('an id revoked in upper case refuses the credential', async () => {
    const issued = signServiceCredential(settingsA, 'server-b', credentialScopes(SERVICES, 'messages'));
    const serverA = await start({
      AUTH_SECRET: SECRET_A,
      SERVICE_CREDENTIALS_REVOKED: issued.credentialId.toUpperCase(),
    });
    try {
      const user = await account(serverA.url, 'revocation@example.com');
      const answer = await call(serverA.url, 'GET', '/messages', {
        token: issued.credential,
        headers: { 'x-on-behalf-of': user.id },
      });
      expect(answer.status).toBe(401);
      expect(answer.body.message).toBe('The service credential has been revoked');
    } finally {
      await stop(serverA);
    }
  });
});

describe('a binding whose credential does not cover it (issue 25, finding 1)', () => {
  it('is not ready, says why once, and answers 503 naming only the service', async () => {
    const serverA = await start({ AUTH_SECRET: SECRET_A });
    const warnings: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        const line = JSON.parse(String(chunk));
        if (line.level === 40) warnings.push(line.msg);
        done();
      },
    });
    const wrongScope = signServiceCredential(settingsA, 'server-b', credentialScopes(SERVICES, 'users'));
    const serverB = await start(
      { AUTH_SECRET: SECRET_B, MESSAGES_REMOTE_URL: serverA.url, MESSAGES_REMOTE_TOKEN: wrongScope.credential },
      { logger: pino({ level: 'info' }, sink) },
    );
    try {
      expect((await call(serverB.url, 'GET', '/ready')).status).toBe(503);
      const user = await account(serverB.url, 'wrong-scope@example.com');
      const answer = await call(serverB.url, 'POST', '/messages', { token: user.token, body: { text: 'refused' } });
      expect(answer.status).toBe(503);
      expect(answer.body.message).toBe("The 'messages' service is unavailable");
      // Once for calls, once for the events the binding would hear (A answers no sockets here).
      expect(warnings).toHaveLength(2);
      expect(warnings).toEqual(
        expect.arrayContaining([
          "remote service 'messages' refuses this server's credential (<NAME>_REMOTE_TOKEN)",
          expect.stringMatching(/^events of remote service 'messages' are not heard \(/),
        ]),
      );
    } finally {
      await stop(serverB);
      await stop(serverA);
    }
  });
});

describe('users bound to the server that stores them (same AUTH_SECRET, logins there)', () => {
  it(
    "B verifies A's tokens and loads their user through the binding as " + 'that user; no account change goes through',
    async () => {
      const serverA = await start({ AUTH_SECRET: SECRET_A });
      const both = signServiceCredential(settingsA, 'server-b', credentialScopes(SERVICES, 'users,messages'));
      const serverB = await start({
        AUTH_SECRET: SECRET_A,
        USERS_REMOTE_URL: serverA.url,
        USERS_REMOTE_TOKEN: both.credential,
        MESSAGES_REMOTE_URL: serverA.url,
        MESSAGES_REMOTE_TOKEN: both.credential,
      });
      try {
        const ann = await account(serverA.url, 'ann.remote@example.com');
        await account(serverA.url, 'ben.remote@example.com');
        const own = await call(serverB.url, 'GET', '/users', { token: ann.token });
        expect(own.body.data.filter((user: { email?: string }) => user.email !== undefined)).toEqual([
          { _id: ann.id, email: 'ann.remote@example.com' },
        ]);
        expect(own.text).not.toContain('ben.remote@example.com');
        expect(own.text).not.toContain('password');
        expect(
          (await call(serverB.url, 'POST', '/messages', { token: ann.token, body: { text: 'through B' } })).body,
        ).toMatchObject({ userId: ann.id });
        expect(
          (
            await call(serverB.url, 'PATCH', `/users/${ann.id}`, {
              token: ann.token,
              body: { password: 'a new password 1' },
            })
          ).status,
        ).toBe(403);
      } finally {
        await stop(serverB);
        await stop(serverA);
      }
    },
  );
});
