import { PASSWORD, signUpAndLogIn, uniqueEmail, type Account } from '../../helpers/accounts';
import { BOTH_STORES, startApp, type RunningApp } from '../../helpers/app-server';
import { call, isErrorBody } from '../../helpers/http';

/**
 * Mass assignment: protected fields (password, owner, ids) cannot be set, unset or renamed
 * through patch operators, dotted paths or extra fields. Each attempt is a 400 and the stored
 * record is unchanged.
 */
describe.each(BOTH_STORES)('security: mass assignment on %s', (_store, env) => {
  let app: RunningApp;
  let alice: Account;
  let bob: Account;
  let aliceId: string;
  let messageId: string;

  beforeAll(async () => {
    app = await startApp(env);
    alice = await signUpAndLogIn(app.url);
    bob = await signUpAndLogIn(app.url);
    aliceId = String(alice.user._id ?? alice.user.id);
    const created = await call(app.url, 'POST', '/messages', { token: alice.token, body: { text: 'mine' } });
    messageId = created.body._id ?? created.body.id;
  }, 60_000);
  afterAll(() => app?.close());

  const storedUser = async () => app.composed.app.service('users').get(aliceId);
  const storedMessage = async () => app.composed.app.service('messages').get(messageId);

  it.each([
    ['$set of the password', { $set: { password: 'attacker-chosen-1' } }],
    ['$unset of the password', { $unset: { password: '' } }],
    ['$rename of the password', { $rename: { password: 'leaked' } }],
    ['$set of the id', { $set: { _id: 'x', id: 'x' } }],
    ['a plain _id', { _id: 'someone-else' }],
    ['a dotted password path', { 'password.x': 'y' }],
    ['a role', { role: 'admin' }],
    ['$inc on users', { $inc: { loginCount: 1 } }],
    ['$push', { $push: { roles: 'admin' } }],
    ['an operator-valued password', { password: { $ne: null } }],
  ])('users patch: %s', async (_label, body) => {
    const before = await storedUser();
    const response = await call(app.url, 'PATCH', `/users/${aliceId}`, { token: alice.token, body });
    expect(response.status).toBe(400);
    expect(isErrorBody(response.body, 400)).toBe(true);
    expect(await storedUser()).toEqual(before);
  });

  it('the old password still logs in after every refused attempt', async () => {
    const login = await call(app.url, 'POST', '/authentication', {
      body: { strategy: 'local', email: alice.user.email, password: PASSWORD },
    });
    expect(login.status).toBe(201);
  });

  it.each([
    ['an id', { _id: 'chosen', id: 'chosen' }],
    ['a role', { role: 'admin' }],
    ['an isAdmin flag', { isAdmin: true }],
    ['an operator key', { $set: { role: 'admin' } }],
  ])('sign-up with %s is refused and stores nothing', async (_label, extra) => {
    const email = uniqueEmail('mass');
    const response = await call(app.url, 'POST', '/users', { body: { email, password: PASSWORD, ...extra } });
    expect(response.status).toBe(400);
    const found = await app.composed.app.service('users').find({ query: { email }, paginate: false });
    expect(found).toEqual([]);
  });

  it.each([
    ['$set of the owner', { $set: { userId: 'bob' } }],
    ['a plain owner', { userId: 'bob' }],
    ['$unset of the owner', { $unset: { userId: '' } }],
    ['$rename of the owner', { $rename: { userId: 'x' } }],
    ['$set of createdAt', { $set: { createdAt: 0 } }],
    ['a dotted path', { 'userId.x': 1 }],
    ['the id', { _id: 'other', id: 'other' }],
  ])('messages patch: %s', async (_label, body) => {
    const before = await storedMessage();
    const response = await call(app.url, 'PATCH', `/messages/${messageId}`, { token: bob.token, body });
    expect(response.status).toBe(400);
    expect(await storedMessage()).toEqual(before);
  });

  it('create and replace keep the authenticated user as the owner', async () => {
    const created = await call(app.url, 'POST', '/messages', {
      token: bob.token,
      body: { text: 'spoof', userId: aliceId },
    });
    expect(created.body.userId).toBe(String(bob.user._id ?? bob.user.id));
    const id = created.body._id ?? created.body.id;
    const replaced = await call(app.url, 'PUT', `/messages/${id}`, {
      token: bob.token,
      body: { text: 'spoof again', userId: aliceId },
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body.userId).toBe(String(bob.user._id ?? bob.user.id));
  });
});
