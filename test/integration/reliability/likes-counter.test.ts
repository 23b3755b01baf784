import { signUpAndLogIn, type Account } from '../../helpers/accounts';
import { BOTH_STORES, startApp, type RunningApp } from '../../helpers/app-server';
import { call, isErrorBody } from '../../helpers/http';

/**
 * The messages counter: new messages start at 0 likes; patch may carry `{ $inc: { likes: ±1 } }`
 * and no other operator, field or amount; a refused patch changes nothing.
 */
describe.each(BOTH_STORES)('messages likes on %s', (_store, env) => {
  let app: RunningApp;
  let account: Account;
  let id: string;

  beforeAll(async () => {
    app = await startApp(env);
    account = await signUpAndLogIn(app.url);
    const created = await call(app.url, 'POST', '/messages', { token: account.token, body: { text: 'like me' } });
    expect(created.body).toMatchObject({ text: 'like me', likes: 0, read: false });
    id = created.body._id ?? created.body.id;
  }, 60_000);
  afterAll(() => app?.close());

  const likes = async () => (await call(app.url, 'GET', `/messages/${id}`, { token: account.token })).body.likes;

  it('counts one like per user: +1, a second +1 changes nothing, -1 takes it back; filters by likes', async () => {
    const like = (amount: number, token = account.token) =>
      call(app.url, 'PATCH', `/messages/${id}`, { token, body: { $inc: { likes: amount } } });
    expect((await like(1)).body).toMatchObject({ likes: 1, likedBy: [account.user._id] });
    expect((await like(1)).body).toMatchObject({ likes: 1, likedBy: [account.user._id] });
    const other = await signUpAndLogIn(app.url);
    expect((await like(1, other.token)).body.likes).toBe(2);
    expect((await like(-1, other.token)).body.likes).toBe(1);
    expect((await like(-1, other.token)).body.likes).toBe(1);
    const found = await call(app.url, 'GET', '/messages?likes[$gte]=1', { token: account.token });
    expect(found.body.data.map((message: any) => message._id ?? message.id)).toEqual([id]);
  });

  it('refuses a like together with other changes with 400', async () => {
    const answer = await call(app.url, 'PATCH', `/messages/${id}`, {
      token: account.token,
      body: { $inc: { likes: 1 }, read: true },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe('A like ({ $inc: { likes: 1 } } or -1) is a patch of its own');
  });

  it.each([
    ['an amount over 1', { $inc: { likes: 2 } }],
    ['an amount under -1', { $inc: { likes: -5 } }],
    ['a fraction', { $inc: { likes: 0.5 } }],
    ['a string amount', { $inc: { likes: '1' } }],
    ['a missing amount', { $inc: {} }],
    ['another field in $inc', { $inc: { likes: 1, createdAt: 1 } }],
    ['the owner in $inc', { $inc: { userId: 1 } }],
    ['a dotted path', { $inc: { 'likes.count': 1 } }],
    ['an operator inside $inc', { $inc: { $where: 1 } }],
    ['$inc as an array', { $inc: [{ likes: 1 }] }],
    ['$inc as a string', { $inc: 'likes' }],
    ['$inc as null', { $inc: null }],
    ['$set', { $set: { likes: 100 } }],
    ['$unset', { $unset: { likes: '' } }],
    ['$rename', { $rename: { likes: 'x' } }],
    ['$mul', { $mul: { likes: 10 } }],
    ['$max', { $max: { likes: 1000 } }],
    ['likes as a plain field', { likes: 1000 }],
  ])('refuses %s with 400 and keeps the count', async (_label, body) => {
    const before = await likes();
    const answer = await call(app.url, 'PATCH', `/messages/${id}`, { token: account.token, body });
    expect(answer.status).toBe(400);
    expect(isErrorBody(answer.body, 400)).toBe(true);
    expect(await likes()).toBe(before);
  });

  it('keeps the server-owned fields on PUT: owner, creation time, likes, who liked and read state', async () => {
    const created = await call(app.url, 'POST', '/messages', { token: account.token, body: { text: 'original' } });
    const item = `/messages/${created.body._id}`;
    await call(app.url, 'PATCH', item, { token: account.token, body: { $inc: { likes: 1 } } });
    await call(app.url, 'PATCH', item, { token: account.token, body: { read: true } });
    const replaced = await call(app.url, 'PUT', item, { token: account.token, body: { text: 'replaced' } });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toEqual({
      ...created.body,
      text: 'replaced',
      likes: 1,
      likedBy: [account.user._id],
      liked: true,
      read: true,
    });
    const found = await call(app.url, 'GET', `/messages?read=true&likes=1&_id=${created.body._id}`, {
      token: account.token,
    });
    expect(found.body.total).toBe(1);
  });

  it('refuses likes on create and $inc on update (replace)', async () => {
    expect(
      (await call(app.url, 'POST', '/messages', { token: account.token, body: { text: 'x', likes: 1000 } })).status,
    ).toBe(400);
    expect(
      (await call(app.url, 'PUT', `/messages/${id}`, { token: account.token, body: { text: 'x', $inc: { likes: 1 } } }))
        .status,
    ).toBe(400);
  });
});
