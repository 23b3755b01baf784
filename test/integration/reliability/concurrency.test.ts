import { PASSWORD, signUpAndLogIn, uniqueEmail, type Account } from './support/accounts';
import { BOTH_STORES, startApp, type RunningApp } from './support/app-server';
import { call, isErrorBody } from './support/http';

const CONCURRENCY = 50;

/**
 * Races on the real composition: 50 sign-ups with one email give exactly one account (the
 * unique index on mongo, the unique field on memory), and 50 concurrent `$inc` patches on one
 * message all count.
 */
describe.each(BOTH_STORES)('reliability: concurrency on %s', (_store, env) => {
  let app: RunningApp;
  let account: Account;

  beforeAll(async () => {
    app = await startApp(env);
    account = await signUpAndLogIn(app.url);
  }, 60_000);
  afterAll(() => app?.close());

  it(`${CONCURRENCY} concurrent sign-ups with one email: exactly one 201, the rest 409`, async () => {
    const email = uniqueEmail('race');
    const answers = await Promise.all(Array.from({ length: CONCURRENCY }, () => call(app.url, 'POST', '/users', { body: { email, password: PASSWORD } })));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(CONCURRENCY - 1);
    for (const answer of answers.filter((each) => each.status === 409)) {
      expect(isErrorBody(answer.body, 409)).toBe(true);
      expect(answer.body).toMatchObject({ name: 'Conflict', data: { fields: ['email'] } });
      // Only the field is named: no driver text, index or collection name, no value.
      expect(answer.text).not.toMatch(/E11000|index|collection|users\.|@example/);
    }
    const found = await call(app.url, 'GET', `/users?email=${encodeURIComponent(email)}`, { token: account.token });
    expect(found.body.total).toBe(1);
  });

  it(`${CONCURRENCY} concurrent $inc patches on one message: the final count is exact`, async () => {
    const created = await call(app.url, 'POST', '/messages', { token: account.token, body: { text: 'count me' } });
    expect(created.body.likes).toBe(0);
    const id = created.body._id ?? created.body.id;
    const ups = 35;
    const answers = await Promise.all(
      Array.from({ length: CONCURRENCY }, (_, index) => call(app.url, 'PATCH', `/messages/${id}`, { token: account.token, body: { $inc: { likes: index < ups ? 1 : -1 } } })),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(CONCURRENCY).fill(200));
    const final = await call(app.url, 'GET', `/messages/${id}`, { token: account.token });
    expect(final.body.likes).toBe(ups - (CONCURRENCY - ups));
  });
});
