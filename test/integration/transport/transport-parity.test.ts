import { PASSWORD, signUpAndLogIn, uniqueEmail, type Account } from '../../helpers/accounts';
import { BOTH_STORES, startApp, type RunningApp } from '../../helpers/app-server';
import { call } from '../../helpers/http';
import { RecordingSocket } from '../../helpers/socket-clients';
import { restRequestOf, socketArgumentsOf, type WireCall } from '../../helpers/wire-calls';

type Call = WireCall;

/** What a client gets back, with what legitimately differs between two runs (new ids, clocks, tokens) replaced. */
type Outcome = { ok: true; result: unknown } | { ok: false; error: Record<string, unknown> };

interface Case {
  name: string;
  /** Who calls: the owner of the prepared records, another user, or nobody. */
  as: 'owner' | 'other' | 'anonymous';
  /** Builds the call; `record` is a message made for this transport's run (so writes do not collide). */
  call(record: string, shared: string): Call;
  /** Errors the two Feathers wire contracts word differently (REST and socket): compare name, code and class. */
  messagesDiffer?: true;
}

const MISSING_ID = '0123456789abcdef01234567';

/**
 * The same table of calls over HTTP (raw fetch, as the Feathers REST client sends them) and over
 * socket.io (raw frames, as the Feathers socket client sends them): every answer must be the same
 * record or the same error (name, code, class, data and, unless the wire contracts say otherwise,
 * message). Both transports share the route table, the argument table, the token parser and the
 * error mapper; this pins that they agree.
 */
const CASES: Case[] = [
  {
    name: 'find with a filter, a sort and a limit',
    as: 'owner',
    call: (_record, shared) => ({
      method: 'find',
      path: 'messages',
      query: { text: shared, $limit: 5, $sort: { createdAt: -1 } },
    }),
  },
  {
    name: 'find with operators and $or',
    as: 'other',
    call: (_record, shared) => ({
      method: 'find',
      path: 'messages',
      query: { $or: [{ text: shared }, { text: { $in: ['x', 'y'] } }], likes: { $gte: 0 } },
    }),
  },
  {
    name: 'find converting types the query DTO declares',
    as: 'owner',
    call: (_record, shared) => ({ method: 'find', path: 'messages', query: { text: shared, read: false, likes: 0 } }),
  },
  { name: 'get', as: 'other', call: (record) => ({ method: 'get', path: 'messages', id: record }) },
  {
    name: 'get with $select',
    as: 'owner',
    call: (record) => ({ method: 'get', path: 'messages', id: record, query: { $select: ['text'] } }),
  },
  { name: 'get of a missing id', as: 'owner', call: () => ({ method: 'get', path: 'messages', id: MISSING_ID }) },
  {
    name: 'create',
    as: 'owner',
    call: () => ({ method: 'create', path: 'messages', data: { text: 'parity create' } }),
  },
  {
    name: 'create with invalid data',
    as: 'owner',
    call: () => ({ method: 'create', path: 'messages', data: { text: '' } }),
  },
  {
    name: 'create with a field no DTO has',
    as: 'owner',
    call: () => ({ method: 'create', path: 'messages', data: { text: 'x', admin: true } }),
  },
  {
    name: 'patch by the owner',
    as: 'owner',
    call: (record) => ({ method: 'patch', path: 'messages', id: record, data: { text: 'patched' } }),
  },
  {
    name: 'patch by another user',
    as: 'other',
    call: (record) => ({ method: 'patch', path: 'messages', id: record, data: { text: 'not mine' } }),
  },
  {
    name: 'a like by another user',
    as: 'other',
    call: (record) => ({ method: 'patch', path: 'messages', id: record, data: { $inc: { likes: 1 } } }),
  },
  {
    name: 'update by the owner',
    as: 'owner',
    call: (record) => ({ method: 'update', path: 'messages', id: record, data: { text: 'replaced' } }),
  },
  {
    name: 'the custom method markRead',
    as: 'owner',
    call: (record) => ({ method: 'markRead', path: 'messages', data: { id: record } }),
  },
  {
    name: 'remove by another user',
    as: 'other',
    call: (record) => ({ method: 'remove', path: 'messages', id: record }),
  },
  { name: 'remove by the owner', as: 'owner', call: (record) => ({ method: 'remove', path: 'messages', id: record }) },
  {
    name: 'an operator the service does not allow',
    as: 'owner',
    call: () => ({ method: 'find', path: 'messages', query: { text: { $where: 'sleep(1000)' } } }),
  },
  {
    name: 'a field the query DTO does not declare',
    as: 'owner',
    call: () => ({ method: 'find', path: 'messages', query: { secret: 'x' } }),
  },
  {
    name: 'a $limit that is not a number',
    as: 'owner',
    call: () => ({ method: 'find', path: 'messages', query: { $limit: 'many' } }),
  },
  { name: 'no credentials', as: 'anonymous', call: () => ({ method: 'find', path: 'messages' }) },
  { name: "another user's account", as: 'other', call: () => ({ method: 'get', path: 'users', id: MISSING_ID }) },
  {
    name: 'a method the service does not list',
    as: 'owner',
    call: () => ({ method: 'find', path: 'authentication' }),
    messagesDiffer: true,
  },
  {
    name: 'an unknown service',
    as: 'owner',
    call: () => ({ method: 'find', path: 'no-such-service' }),
    messagesDiffer: true,
  },
];

describe.each(BOTH_STORES)('the same calls over HTTP and over a socket, on %s', (_store, env) => {
  let app: RunningApp;
  let owner: Account;
  let other: Account;
  const sockets = new Map<Case['as'], RecordingSocket>();
  const sharedText = `parity ${Date.now()}`;
  let shared: string;

  beforeAll(async () => {
    app = await startApp(env);
    [owner, other] = await Promise.all([
      signUpAndLogIn(app.url, uniqueEmail('owner')),
      signUpAndLogIn(app.url, uniqueEmail('other')),
    ]);
    shared = await newMessage(sharedText);
    for (const [who, account] of [
      ['owner', owner],
      ['other', other],
      ['anonymous', undefined],
    ] as const) {
      const socket = new RecordingSocket(app.url);
      await socket.connected();
      if (account) {
        const [error] = await socket.call(
          'create',
          'authentication',
          { strategy: 'jwt', accessToken: account.token },
          {},
        );
        if (error) throw new Error(`socket login failed: ${JSON.stringify(error)}`);
      }
      sockets.set(who, socket);
    }
  }, 60_000);
  afterAll(async () => {
    for (const socket of sockets.values()) socket.close();
    await app?.close();
  });

  async function newMessage(text = 'parity record'): Promise<string> {
    const created = await call(app.url, 'POST', '/messages', { token: owner.token, body: { text } });
    if (created.status !== 201) throw new Error(`could not create a message: ${created.text}`);
    return created.body._id as string;
  }

  const tokenOf = (who: Case['as']): string | undefined =>
    who === 'owner' ? owner.token : who === 'other' ? other.token : undefined;

  async function overHttp(request: Call, who: Case['as']): Promise<Outcome> {
    const { verb, url, headers } = restRequestOf(request);
    const response = await call(app.url, verb, url, { token: tokenOf(who), body: request.data, headers });
    if (response.status >= 400) return { ok: false, error: response.body };
    expect(response.status).toBe(request.method === 'create' ? 201 : 200);
    return { ok: true, result: response.body };
  }

  async function overSocket(request: Call, who: Case['as']): Promise<Outcome> {
    const [error, result] = await sockets.get(who)!.call(request.method, request.path, ...socketArgumentsOf(request));
    return error ? { ok: false, error: error as Record<string, unknown> } : { ok: true, result };
  }

  /** New ids and clocks differ between the two runs of a write; everything else must not. */
  function comparable(outcome: Outcome, record: string, messagesDiffer: boolean): unknown {
    const text = JSON.stringify(outcome)
      .replaceAll(record, '<record>')
      .replace(/"_id":"[0-9a-f]{24}"/g, '"_id":"<new id>"')
      .replace(/"createdAt":\d+/g, '"createdAt":"<time>"');
    const parsed = JSON.parse(text) as Outcome;
    if (!parsed.ok && messagesDiffer)
      return {
        ok: false,
        error: { name: parsed.error.name, code: parsed.error.code, className: parsed.error.className },
      };
    return parsed;
  }

  it.each(CASES.map((testCase) => [testCase.name, testCase] as const))('%s', async (_name, testCase) => {
    const [httpRecord, socketRecord] = await Promise.all([newMessage(), newMessage()]);
    const viaHttp = await overHttp(testCase.call(httpRecord, shared), testCase.as);
    const viaSocket = await overSocket(testCase.call(socketRecord, shared), testCase.as);
    expect(comparable(viaSocket, socketRecord, testCase.messagesDiffer === true)).toEqual(
      comparable(viaHttp, httpRecord, testCase.messagesDiffer === true),
    );
    // A failure has the wire shape on both transports, never a stack.
    if (!viaHttp.ok)
      expect(viaHttp.error).toEqual(
        expect.objectContaining({ name: expect.any(String), code: expect.any(Number), className: expect.any(String) }),
      );
    expect(JSON.stringify(viaSocket)).not.toContain('stack');
  });

  it('covers successes and failures of every method a transport can call', () => {
    const methods = new Set(CASES.map((testCase) => testCase.call('r', 's').method));
    expect([...methods].sort()).toEqual(['create', 'find', 'get', 'markRead', 'patch', 'remove', 'update']);
  });

  it("logs in the same way over both (the answer's user without its password)", async () => {
    const email = uniqueEmail('parity-login');
    await call(app.url, 'POST', '/users', { body: { email, password: PASSWORD } });
    const login = { method: 'create', path: 'authentication', data: { strategy: 'local', email, password: PASSWORD } };
    const viaHttp = await overHttp(login, 'anonymous');
    const viaSocket = await overSocket(login, 'anonymous');
    // Each login is a new token: its id, times and signature differ.
    const withoutToken = (outcome: Outcome) =>
      JSON.parse(
        JSON.stringify(outcome)
          .replace(/"accessToken":"[^"]+"/, '"accessToken":"<token>"')
          .replace(/"refreshToken":"[^"]+"/, '"refreshToken":"<token>"')
          .replace(/"(jti|sid)":"[^"]+"/g, '"$1":"<id>"')
          .replace(/"(iat|exp)":\d+/g, '"$1":"<time>"'),
      );
    expect(viaHttp.ok).toBe(true);
    expect(withoutToken(viaSocket)).toEqual(withoutToken(viaHttp));
    expect(JSON.stringify(viaHttp)).not.toContain('password');
  });
});
