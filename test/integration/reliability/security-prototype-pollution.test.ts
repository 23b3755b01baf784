import { signUpAndLogIn, type Account } from '../../helpers/accounts';
import { BOTH_STORES, startApp, type RunningApp } from '../../helpers/app-server';
import { call, isErrorBody } from '../../helpers/http';

/**
 * Prototype pollution through query strings and JSON bodies: each attempt is a 400, and no
 * object in the process (the app runs in this one) gains the property afterwards.
 */
describe.each(BOTH_STORES)('security: prototype pollution on %s', (_store, env) => {
  let app: RunningApp;
  let alice: Account;
  let messageId: string;

  beforeAll(async () => {
    app = await startApp(env);
    alice = await signUpAndLogIn(app.url);
    const created = await call(app.url, 'POST', '/messages', { token: alice.token, body: { text: 'target' } });
    messageId = created.body._id ?? created.body.id;
  }, 60_000);
  afterAll(() => app?.close());

  afterEach(() => {
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((Object.prototype as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.hasOwn(Object.prototype, 'polluted')).toBe(false);
  });

  it.each([
    '__proto__[polluted]=1',
    '__proto__.polluted=1',
    'constructor[prototype][polluted]=1',
    'text[__proto__][polluted]=1',
    '$or[0][__proto__][polluted]=1',
    '$and[0][constructor][prototype][polluted]=1',
    '%5F%5Fproto%5F%5F[polluted]=1',
    '$sort[__proto__][polluted]=1',
    '$select[__proto__]=polluted',
  ])('query string %s', async (query) => {
    const response = await call(app.url, 'GET', `/messages?${query}`, { token: alice.token });
    expect(response.status).toBe(400);
    expect(isErrorBody(response.body, 400)).toBe(true);
  });

  const bodies = [
    '{"__proto__":{"polluted":1},"text":"x"}',
    '{"constructor":{"prototype":{"polluted":1}},"text":"x"}',
    '{"text":"x","nested":{"__proto__":{"polluted":1}}}',
    '{"$inc":{"__proto__":{"polluted":1}}}',
    '{"$inc":{"likes":1,"__proto__":{"polluted":1}}}',
    '[{"__proto__":{"polluted":1}}]',
  ];

  it.each(bodies)('JSON body %s on create, patch and update of messages', async (rawBody) => {
    for (const [method, pathname] of [
      ['POST', '/messages'],
      ['PATCH', `/messages/${messageId}`],
      ['PUT', `/messages/${messageId}`],
    ]) {
      const response = await call(app.url, method, pathname, { token: alice.token, rawBody });
      expect(response.status).toBe(400);
      expect(isErrorBody(response.body, 400)).toBe(true);
    }
    const stored = await app.composed.app.service('messages').get(messageId);
    expect(stored).toMatchObject({ text: 'target', likes: 0 });
    expect(Object.getPrototypeOf(stored)).toBe(Object.prototype);
  });

  it.each(bodies)('JSON body %s on sign-up and login', async (rawBody) => {
    for (const pathname of ['/users', '/authentication']) {
      const response = await call(app.url, 'POST', pathname, { rawBody });
      expect([400, 401]).toContain(response.status);
      expect(isErrorBody(response.body, response.status)).toBe(true);
    }
  });
});
