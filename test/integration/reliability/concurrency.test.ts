import { PASSWORD, signUpAndLogIn, uniqueEmail, type Account } from '../../helpers/accounts';
import { BOTH_STORES, startApp, type RunningApp } from '../../helpers/app-server';
import { call, isErrorBody } from '../../helpers/http';

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
    const answers = await Promise.all(
      Array.from({ length: CONCURRENCY }, () =>
        call(app.url, 'POST', '/users', { body: { email, password: PASSWORD } }),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(CONCURRENCY - 1);
    for (const answer of answers.filter((each) => each.status === 409)) {
      expect(isErrorBody(answer.body, 409)).toBe(true);
      expect(answer.body).toMatchObject({ name: 'Conflict', data: { fields: ['email'] } });
      // Only the field is named: no driver text, index or collection name, no value.
      expect(answer.text).not.toMatch(/E11000|index|collection|users\.|@example/);
    }
    const owner = await call(app.url, 'POST', '/authentication', {
      body: { strategy: 'local', email: email.toUpperCase(), password: PASSWORD },
    });
    const found = await call(app.url, 'GET', `/users?email=${encodeURIComponent(email)}`, {
      token: owner.body.accessToken,
    });
    expect(found.body).toMatchObject({ total: 1, data: [{ email }] });
  });

  it('counts an e-mail address once whatever its case', async () => {
    const email = uniqueEmail('case');
    expect((await call(app.url, 'POST', '/users', { body: { email, password: PASSWORD } })).status).toBe(201);
    const again = await call(app.url, 'POST', '/users', { body: { email: email.toUpperCase(), password: PASSWORD } });
    expect(again.status).toBe(409);
  });

  it(`${CONCURRENCY} concurrent likes: each user's counts once, repeated ones do not`, async () => {
    const created = await call(app.url, 'POST', '/messages', { token: account.token, body: { text: 'count me' } });
    expect(created.body.likes).toBe(0);
    const id = created.body._id ?? created.body.id;
    const likers = await Promise.all(Array.from({ length: 10 }, () => signUpAndLogIn(app.url)));
    // Every liker sends 5 likes at once, and the first five also 5 unlikes after their likes.
    const like = (liker: Account, amount: number) =>
      call(app.url, 'PATCH', `/messages/${id}`, { token: liker.token, body: { $inc: { likes: amount } } });
    const answers = await Promise.all(
      likers.flatMap((liker) => Array.from({ length: CONCURRENCY / 10 }, () => like(liker, 1))),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(CONCURRENCY).fill(200));
    const unlikes = await Promise.all(
      likers.slice(0, 5).flatMap((liker) => Array.from({ length: 5 }, () => like(liker, -1))),
    );
    expect(unlikes.map((answer) => answer.status)).toEqual(Array(25).fill(200));
    const final = await call(app.url, 'GET', `/messages/${id}`, { token: account.token });
    expect(final.body.likes).toBe(5);
    expect([...final.body.likedBy].sort()).toEqual(
      likers
        .slice(5)
        .map((liker) => liker.user._id)
        .sort(),
    );
  });
});
