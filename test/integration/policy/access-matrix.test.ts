import 'reflect-metadata';
import { dereference } from '@readme/openapi-parser';
import Ajv2020 from 'ajv/dist/2020';
import { createJwtSettings, signServiceCredential } from '../../../src';
import { SERVICES } from '../../../src/application/services/service-list';
import { credentialScopes } from '../../../src/composition/credential-scopes';
import { loadConfig } from '../../../src/composition/load-config';
import { composeApplication } from '../../../src/composition-root';
import { listenHttp } from '../../../src';
import {
  call,
  PASSWORD,
  SECRET_A,
  SECRET_B,
  serversOnOneDatabase,
  stop,
  type Running,
} from '../../helpers/bound-servers';
import { RecordingSocket, waitFor } from '../../helpers/socket-clients';
import { restRequestOf, socketArgumentsOf, type WireCall } from '../../helpers/wire-calls';

type Actor = 'anonymous' | 'owner' | 'other' | 'admin';
const ACTORS: readonly Actor[] = ['anonymous', 'owner', 'other', 'admin'];

/**
 * `{message}` and `{owner}` in a call stand for a fresh message of the owner (liked by the other
 * user) and their account.
 */
type Call = WireCall;

/** Every method, field rules, `$select`, totals, and a query on a field only some may read. */
const CALLS: Record<string, Call> = {
  'find a page': { method: 'find', path: 'messages', query: { _id: '{message}' } },
  'find with $select': { method: 'find', path: 'messages', query: { _id: '{message}', $select: ['text', 'likes'] } },
  'count ($limit 0)': { method: 'find', path: 'messages', query: { userId: '{owner}', $limit: 0 } },
  get: { method: 'get', path: 'messages', id: '{message}' },
  'get without relations': { method: 'get', path: 'messages', id: '{message}', query: { $include: '' } },
  create: { method: 'create', path: 'messages', data: { text: 'new' } },
  'patch the text': { method: 'patch', path: 'messages', id: '{message}', data: { text: 'edited' } },
  like: { method: 'patch', path: 'messages', id: '{message}', data: { $inc: { likes: 1 } } },
  update: { method: 'update', path: 'messages', id: '{message}', data: { text: 'replaced' } },
  remove: { method: 'remove', path: 'messages', id: '{message}' },
  markRead: { method: 'markRead', path: 'messages', data: { id: '{message}' } },
  "get the owner's account": { method: 'get', path: 'users', id: '{owner}' },
  "find by the owner's e-mail": { method: 'find', path: 'users', query: { email: '{owner email}' } },
  "patch the owner's name": { method: 'patch', path: 'users', id: '{owner}', data: { name: 'Owner' } },
};

/** What an actor sees of a call: the answer with ids, clocks and e-mails named, or the error's name and code. */
type Outcome = { ok: true; answer: unknown } | { ok: false; name: unknown; code: unknown };

/**
 * The access matrix of issue 26: every actor (anonymous, the owner, another user, an admin) x every
 * call above, on a fresh message of the owner each time, over REST and over a socket on the server
 * that stores the records, on both stores, and over REST through a server whose `messages` is bound
 * to it. Every way must give the same outcomes, and the table says what they are.
 */
describe(
  'the access matrix: the same answers for every actor over REST, ' + 'sockets, a remote binding and both stores',
  () => {
    const { start } = serversOnOneDatabase();
    const tables = new Map<string, Record<string, Outcome>>();
    const eventFields = new Map<string, Record<Actor, string[] | null>>();

    async function runMatrix(
      label: string,
      storing: Running,
      via: Running,
      transport: 'rest' | 'socket',
    ): Promise<void> {
      const accounts = await actorsOn(storing, via);
      const answerSchemas = await answerSchemasOf(via);
      const sockets = transport === 'socket' ? await socketsFor(via.url, accounts) : undefined;
      const table: Record<string, Outcome> = {};
      try {
        for (const actor of ACTORS) {
          for (const [name, template] of Object.entries(CALLS)) {
            const created = await call(storing.url, 'POST', '/messages', {
              token: accounts.owner.storingToken,
              body: { text: 'mine' },
            });
            expect(created.status).toBe(201);
            // Liked by the other user, so that who liked it is there to be shown or not.
            expect(
              (
                await call(storing.url, 'PATCH', `/messages/${created.body._id}`, {
                  token: accounts.other.storingToken,
                  body: { $inc: { likes: 1 } },
                })
              ).status,
            ).toBe(200);
            const names = {
              '{message}': created.body._id,
              '{owner}': accounts.owner.id,
              '{owner email}': accounts.owner.email,
            };
            const request = fill(template, names) as Call;
            const outcome = sockets
              ? await overSocket(sockets[actor], request)
              : await overRest(via.url, accounts[actor].token, request);
            // Every answer is what the served OpenAPI document says it is (record schemas admit no other field).
            if (outcome.ok)
              expect({ cell: `${actor}: ${name}`, errors: answerSchemas(request)(outcome.answer) }).toEqual({
                cell: `${actor}: ${name}`,
                errors: null,
              });
            table[`${actor}: ${name}`] = named(outcome, {
              ...names,
              '{other}': accounts.other.id,
              '{admin}': accounts.admin.id,
              '{other email}': accounts.other.email,
              '{admin email}': accounts.admin.email,
            });
          }
        }
        if (sockets) eventFields.set(label, await eventViews(storing, accounts, sockets));
      } finally {
        for (const socket of Object.values(sockets ?? {})) socket.close();
      }
      tables.set(label, table);
    }

    it('on the memory store, over REST and over a socket', async () => {
      const config = loadConfig({
        NODE_ENV: 'test',
        STORE: 'memory',
        DATA_DIR: ':memory:',
        PASSWORD_HASH_COST: '10',
        AUTH_SECRET: SECRET_A,
      });
      const composed = await composeApplication(config, {
        authentication: { rateLimit: false, signUpRateLimit: false },
      });
      const http = await listenHttp(composed.http, { host: '127.0.0.1', port: 0 });
      composed.realtime.attach(http.server);
      const server: Running = { composed, http, url: http.url };
      try {
        await runMatrix('memory, REST', server, server, 'rest');
        await runMatrix('memory, socket', server, server, 'socket');
      } finally {
        await composed.realtime.close();
        await stop(server);
      }
    }, 120_000);

    it('on MongoDB, over REST, over a socket, and through a server whose messages are bound to it', async () => {
      const serverA = await start({ AUTH_SECRET: SECRET_A });
      serverA.composed.realtime.attach(serverA.http.server);
      const { credential } = signServiceCredential(
        createJwtSettings({ secret: SECRET_A }),
        'server-b',
        credentialScopes(SERVICES, 'messages'),
      );
      const serverB = await start({
        AUTH_SECRET: SECRET_B,
        MESSAGES_REMOTE_URL: serverA.url,
        MESSAGES_REMOTE_TOKEN: credential,
      });
      try {
        await runMatrix('mongo, REST', serverA, serverA, 'rest');
        await runMatrix('mongo, socket', serverA, serverA, 'socket');
        await runMatrix('mongo, REST through B', serverA, serverB, 'rest');
      } finally {
        await serverA.composed.realtime.close();
        await stop(serverB);
        await stop(serverA);
      }
    }, 180_000);

    it('gives identical outcomes everywhere, and they are the policies of the skeleton', () => {
      const first = [...tables.values()][0];
      expect(tables.size).toBe(5);
      for (const [label, table] of tables) expect({ label, table }).toEqual({ label, table: first });
      const ok = (answer: unknown) => ({ ok: true, answer });
      const refused = (name: string, code: number) => ({ ok: false, name, code });
      expect(first).toMatchObject({
        // Anonymous: nothing but a 401 (sign-up aside, which is not a call on a record).
        'anonymous: get': refused('NotAuthenticated', 401),
        'anonymous: find a page': refused('NotAuthenticated', 401),
        'anonymous: create': refused('NotAuthenticated', 401),
        "anonymous: get the owner's account": refused('NotAuthenticated', 401),
        // Everyone signed in reads and likes; who liked is for the author and admins.
        // Every message answer names its author as the users policy shows them: `_id` and `name`.
        'other: get': ok({
          _id: '{message}',
          text: 'mine',
          userId: '{owner}',
          read: false,
          likes: 1,
          createdAt: '<time>',
          liked: true,
          user: { _id: '{owner}', name: 'Owner' },
        }),
        'owner: get': ok({
          _id: '{message}',
          text: 'mine',
          userId: '{owner}',
          read: false,
          likes: 1,
          likedBy: ['{other}'],
          createdAt: '<time>',
          liked: false,
          user: { _id: '{owner}', name: 'Owner' },
        }),
        'admin: get': ok({
          _id: '{message}',
          text: 'mine',
          userId: '{owner}',
          read: false,
          likes: 1,
          likedBy: ['{other}'],
          createdAt: '<time>',
          liked: false,
          user: { _id: '{owner}', name: 'Owner' },
        }),
        'other: get without relations': ok({
          _id: '{message}',
          text: 'mine',
          userId: '{owner}',
          read: false,
          likes: 1,
          createdAt: '<time>',
          liked: true,
        }),
        'other: find with $select': ok({
          total: 1,
          limit: 10,
          skip: 0,
          data: [{ _id: '{message}', text: 'mine', likes: 1 }],
        }),
        // A second like by the same user changes nothing and answers the message as it is.
        'other: like': ok({
          _id: '{message}',
          text: 'mine',
          userId: '{owner}',
          read: false,
          likes: 1,
          createdAt: '<time>',
          liked: true,
          user: { _id: '{owner}', name: 'Owner' },
        }),
        'admin: like': ok(expect.objectContaining({ likes: 2, likedBy: ['{other}', '{admin}'], liked: true })),
        // Only the author edits; the author or an admin removes.
        'other: patch the text': refused('Forbidden', 403),
        'other: update': refused('Forbidden', 403),
        'other: remove': refused('Forbidden', 403),
        'other: markRead': refused('NotFound', 404),
        'admin: patch the text': refused('Forbidden', 403),
        'admin: remove': ok(expect.objectContaining({ _id: '{message}' })),
        'owner: patch the text': ok(expect.objectContaining({ text: 'edited', likedBy: ['{other}'] })),
        'owner: markRead': ok(expect.objectContaining({ read: true })),
        // Accounts: names for everyone, the e-mail for its user and admins; a query cannot probe it.
        "other: get the owner's account": ok({ _id: '{owner}', name: 'Owner' }),
        "owner: get the owner's account": ok({ _id: '{owner}', name: 'Owner', email: '{owner email}' }),
        "admin: get the owner's account": ok({ _id: '{owner}', name: 'Owner', email: '{owner email}' }),
        "other: find by the owner's e-mail": ok({ total: 0, limit: 10, skip: 0, data: [] }),
        "owner: find by the owner's e-mail": ok(expect.objectContaining({ total: 1 })),
        "other: patch the owner's name": refused('Forbidden', 403),
      });
      // Exactly these fields: nothing more for anyone (toMatchObject above lets nested extras pass).
      expect(first['other: get']).toEqual(
        ok({
          _id: '{message}',
          text: 'mine',
          userId: '{owner}',
          read: false,
          likes: 1,
          createdAt: '<time>',
          liked: true,
          user: { _id: '{owner}', name: 'Owner' },
        }),
      );
      expect(first['other: get without relations']).toEqual(
        ok({
          _id: '{message}',
          text: 'mine',
          userId: '{owner}',
          read: false,
          likes: 1,
          createdAt: '<time>',
          liked: true,
        }),
      );
      // A count is a page without records; what it counts is the same for every signed-in reader
      // (the tables above are equal cell by cell), and totals of what some may not read are covered by
      // the e-mail query: 0 for another user, 1 for the owner.
      expect(first['other: count ($limit 0)']).toEqual(ok({ total: expect.any(Number), limit: 0, skip: 0, data: [] }));
    });

    it('sends each socket its own view of an event', () => {
      expect(eventFields.size).toBe(2);
      for (const views of eventFields.values()) {
        expect(views.anonymous).toBeNull();
        expect(views.owner).toContain('likedBy');
        expect(views.admin).toContain('likedBy');
        expect(views.other).not.toContain('likedBy');
        expect(views.other).toContain('liked');
        for (const actor of ['owner', 'other', 'admin'] as const) expect(views[actor]).toContain('user');
      }
    });

    /**
     * The four actors on the storing server (the admin's role set in its store, as grant-role
     * does), with tokens of the server they call.
     */
    async function actorsOn(storing: Running, via: Running) {
      const stamp = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
      const make = async (who: Exclude<Actor, 'anonymous'>) => {
        const email = `${who}-${stamp}@example.com`;
        const created = await call(storing.url, 'POST', '/users', {
          body: { email, password: PASSWORD, name: who === 'owner' ? 'Owner' : who },
        });
        expect(created.status).toBe(201);
        if (who === 'admin')
          await storing.composed.app.lookup('users')!.original._patch(created.body._id, { roles: ['admin'] });
        const logIn = async (server: Running) => {
          const login = await call(server.url, 'POST', '/authentication', {
            body: { strategy: 'local', email, password: PASSWORD },
          });
          expect(login.status).toBe(201);
          return login.body.accessToken as string;
        };
        return { id: String(created.body._id), email, token: await logIn(via), storingToken: await logIn(storing) };
      };
      const owner = await make('owner');
      const [other, admin] = [await make('other'), await make('admin')];
      return {
        owner,
        other,
        admin,
        anonymous: {
          id: '',
          email: '',
          token: undefined as string | undefined,
          storingToken: undefined as string | undefined,
        },
      };
    }
  },
);

/** The served document's response schema of each call: a validator answering its errors (null when valid). */
async function answerSchemasOf(server: Running): Promise<(request: Call) => (answer: unknown) => unknown> {
  const document = (await call(server.url, 'GET', '/openapi.json')).body;
  const schemas = ((await dereference(document)) as unknown as { components: { schemas: Record<string, object> } })
    .components.schemas;
  // Formats are the DTOs' business; the shapes are compared here.
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  const compiled = new Map<string, ReturnType<typeof ajv.compile>>();
  return (request) => {
    const name = `${request.path === 'users' ? 'Users' : 'Messages'}${request.method === 'find' ? 'Page' : 'Record'}`;
    if (!compiled.has(name)) compiled.set(name, ajv.compile(schemas[name]));
    const check = compiled.get(name)!;
    return (answer) => (check(answer) ? null : check.errors);
  };
}

async function socketsFor(
  url: string,
  accounts: Record<Actor, { token: string | undefined }>,
): Promise<Record<Actor, RecordingSocket>> {
  const sockets = {} as Record<Actor, RecordingSocket>;
  for (const actor of ACTORS) {
    const socket = new RecordingSocket(url);
    await socket.connected();
    const token = accounts[actor].token;
    if (token) {
      const [error] = await socket.call('create', 'authentication', { strategy: 'jwt', accessToken: token }, {});
      if (error) throw new Error(`socket login failed: ${JSON.stringify(error)}`);
    }
    sockets[actor] = socket;
  }
  return sockets;
}

/** The fields each actor's socket receives in the `patched` event of another user's like (null: none). */
async function eventViews(
  storing: Running,
  accounts: Record<Actor, { storingToken: string | undefined }>,
  sockets: Record<Actor, RecordingSocket>,
): Promise<Record<Actor, string[] | null>> {
  const created = await call(storing.url, 'POST', '/messages', {
    token: accounts.owner.storingToken,
    body: { text: 'event' },
  });
  await call(storing.url, 'PATCH', `/messages/${created.body._id}`, {
    token: accounts.other.storingToken,
    body: { $inc: { likes: 1 } },
  });
  const heard = (actor: Actor) =>
    sockets[actor].named('messages patched').find((message) => message._id === created.body._id);
  await waitFor(
    () => (['owner', 'other', 'admin'] as const).every((actor) => heard(actor) !== undefined),
    'every signed-in socket hears the like',
  );
  return Object.fromEntries(
    ACTORS.map((actor) => [actor, heard(actor) ? Object.keys(heard(actor)).sort() : null]),
  ) as Record<Actor, string[] | null>;
}

async function overRest(url: string, token: string | undefined, request: Call): Promise<Outcome> {
  const { verb, url: target, headers } = restRequestOf(request);
  const response = await call(url, verb, target, { token, body: request.data, headers });
  return response.status >= 400
    ? { ok: false, name: response.body.name, code: response.body.code }
    : { ok: true, answer: response.body };
}

async function overSocket(socket: RecordingSocket, request: Call): Promise<Outcome> {
  const [error, result] = await socket.call(request.method, request.path, ...socketArgumentsOf(request));
  const failure = error as { name?: unknown; code?: unknown } | null;
  return failure ? { ok: false, name: failure.name, code: failure.code } : { ok: true, answer: result };
}

/** Replaces placeholders in a call by the values they stand for. */
function fill(value: unknown, names: Record<string, string>): unknown {
  if (typeof value === 'string') return names[value] ?? value;
  if (Array.isArray(value)) return value.map((item) => fill(item, names));
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, fill(item, names)]));
  return value;
}

/** The outcome with the ids and e-mails it holds named, new ids and clocks made comparable. */
function named(outcome: Outcome, names: Record<string, string>): Outcome {
  let text = JSON.stringify(outcome);
  for (const [placeholder, value] of Object.entries(names))
    if (value) text = text.replaceAll(`"${value}"`, `"${placeholder}"`);
  text = text.replace(/"_id":"[0-9a-f]{24}"/g, '"_id":"<new id>"').replace(/"createdAt":\d+/g, '"createdAt":"<time>"');
  return JSON.parse(text) as Outcome;
}
