import { PASSWORD, signUpAndLogIn, type Account } from '../../helpers/accounts';
import { BOTH_STORES, startApp, type RunningApp } from '../../helpers/app-server';
import { call, isErrorBody } from '../../helpers/http';

/**
 * Operator injection through every door of the real application: query strings, ids in the
 * path, JSON bodies, credentials, `$select` and `$sort`. Each is a 4xx JSON error, and nothing
 * is matched, stored or leaked.
 */
describe.each(BOTH_STORES)('security: operator injection on %s', (_store, env) => {
  let app: RunningApp;
  let alice: Account;
  let messageId: string;

  beforeAll(async () => {
    app = await startApp(env);
    alice = await signUpAndLogIn(app.url);
    const created = await call(app.url, 'POST', '/messages', { token: alice.token, body: { text: 'private' } });
    messageId = created.body._id ?? created.body.id;
  }, 60_000);
  afterAll(() => app?.close());

  const expectRefused = (response: { status: number; body: any; text: string }) => {
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    expect(isErrorBody(response.body, response.status)).toBe(true);
    expect(response.text).not.toMatch(/\$2[aby]\$|\$scrypt\$|private/);
  };

  it.each([
    ['$where', '/messages?$where=sleep(1000)'],
    ['$where inside $or', '/messages?$or[0][$where]=1'],
    ['$where behind a constructor key', '/messages?$or[0][constructor]=x&$or[0][$where]=1'],
    ['$function as a field operator', '/messages?text[$function][body]=x'],
    ['$expr', '/messages?$expr[$eq][0]=1'],
    ['$expr with $function', '/messages?$and[0][$expr][$function][body]=x'],
    ['$accumulator', '/messages?text[$accumulator]=x'],
    ['$jsonSchema', '/messages?$jsonSchema[required][0]=text'],
    ['$regex where not allowed', '/messages?text[$regex]=.*'],
    ['$text where not allowed', '/messages?$text[$search]=private'],
    ['$elemMatch', '/messages?text[$elemMatch][$ne]=1'],
    ['$exists on users', '/users?password[$exists]=true'],
    ['a filter on the hidden password', '/users?password=x'],
    ['$select of a projection alias', '/users?$select[leak]=$password'],
    ['$select as an object with an operator', '/messages?$select[0][$function]=x'],
    ['$select of an operator string', '/messages?$select[0]=$text'],
    ['$sort on an operator', '/messages?$sort[$where]=1'],
    ['$sort with an expression value', '/messages?$sort[text][$meta]=textScore'],
    ['an operator mixed with array indexes (found by the fuzzer)', '/messages?id[]=&id[$ne]=1'],
    ['an operator mixed with a field name', '/messages?read[x]=1&read[$ne]=true'],
  ])('query string: %s', async (_label, pathname) => {
    const token = alice.token;
    expectRefused(await call(app.url, 'GET', pathname, { token }));
  });

  it.each(['get', 'patch', 'remove'])('an operator as the id of %s matches nothing', async (method) => {
    const verb = { get: 'GET', patch: 'PATCH', remove: 'DELETE' }[method]!;
    for (const id of ['{"$ne":null}', '{"$gt":""}', '[object Object]', 'constructor', '__proto__']) {
      const response = await call(app.url, verb, `/messages/${encodeURIComponent(id)}`, {
        token: alice.token,
        body: verb === 'PATCH' ? { read: true } : undefined,
      });
      expectRefused(response);
    }
    expect((await call(app.url, 'GET', `/messages/${messageId}`, { token: alice.token })).body.read).toBe(false);
  });

  it('an id path segment in bracket form is not parsed as an object', async () => {
    expectRefused(await call(app.url, 'GET', '/messages/%5B%24ne%5D=1', { token: alice.token }));
  });

  it.each([
    ['text as an operator', { text: { $ne: null } }],
    ['text as $where', { text: { $where: 'return true' } }],
    ['an operator key at the top', { text: 'x', $where: '1' }],
    ['an array of operators', { text: [{ $gt: '' }] }],
  ])('body of create: %s', async (_label, body) => {
    const before = (await call(app.url, 'GET', '/messages?$limit=0', { token: alice.token })).body.total;
    expectRefused(await call(app.url, 'POST', '/messages', { token: alice.token, body }));
    expect((await call(app.url, 'GET', '/messages?$limit=0', { token: alice.token })).body.total).toBe(before);
  });

  it.each([
    ['email as $ne', { email: { $ne: null }, password: PASSWORD }],
    ['email as $gt', { email: { $gt: '' }, password: PASSWORD }],
    ['email as $regex', { email: { $regex: '.*' }, password: PASSWORD }],
    ['email as an array', { email: ['a@example.com'], password: PASSWORD }],
    ['password as $ne', { email: 'x@example.com', password: { $ne: null } }],
    ['both as operators', { email: { $exists: true }, password: { $exists: true } }],
  ])('credentials: %s is a 401 like a wrong password', async (_label, credentials) => {
    const response = await call(app.url, 'POST', '/authentication', { body: { strategy: 'local', ...credentials } });
    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ name: 'NotAuthenticated', message: 'Invalid login' });
    expect(response.body.accessToken).toBeUndefined();
  });

  it('query filters on users by email only match the literal value', async () => {
    const found = await call(app.url, 'GET', `/users?email[$ne]=nobody`, { token: alice.token });
    // $ne on an allowed field is a legitimate query; whatever it returns carries no password.
    expect(found.status).toBe(200);
    expect(found.text).not.toMatch(/password|\$2[aby]\$|\$scrypt\$/);
  });
});
