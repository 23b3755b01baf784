import { PASSWORD, signUpAndLogIn, type Account } from '../../helpers/accounts';
import { BOTH_STORES, startApp, type RunningApp } from '../../helpers/app-server';
import { call } from '../../helpers/http';
import { RecordingSocket, waitFor } from '../../helpers/socket-clients';

/**
 * The skeleton's policies as answers and events show them: every signed-in user reads messages
 * and everyone's name; who liked a message only its author and admins; an e-mail only its user;
 * each socket receives its own view of an event (checked on the raw frames), and an admin may
 * remove anyone's message.
 */
describe.each(BOTH_STORES)('policies in answers and events on %s', (_store, env) => {
  let app: RunningApp;
  let author: Account;
  let reader: Account;
  let admin: Account;
  const sockets: RecordingSocket[] = [];

  const idOf = (record: Record<string, any>) => String(record._id ?? record.id);

  beforeAll(async () => {
    app = await startApp(env);
    author = await signUpAndLogIn(app.url);
    reader = await signUpAndLogIn(app.url);
    admin = await signUpAndLogIn(app.url);
    // Roles are never written through the API: set here the way `npm run grant-role` does, in the store.
    await app.composed.app.lookup('users')!.original._patch(idOf(admin.user), { roles: ['admin'] });
  });

  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await app.close();
  });

  async function signedInSocket(account: Account): Promise<RecordingSocket> {
    const socket = new RecordingSocket(app.url);
    sockets.push(socket);
    await socket.connected();
    const [error] = await socket.call('create', 'authentication', {
      strategy: 'local',
      email: account.user.email,
      password: PASSWORD,
    });
    expect(error).toBeNull();
    return socket;
  }

  it('answers each caller with their view: likedBy for the author and admins, liked for everyone', async () => {
    const created = await call(app.url, 'POST', '/messages', { token: author.token, body: { text: 'views' } });
    const item = `/messages/${idOf(created.body)}`;
    expect((await call(app.url, 'PATCH', item, { token: reader.token, body: { $inc: { likes: 1 } } })).status).toBe(
      200,
    );
    const asReader = (await call(app.url, 'GET', item, { token: reader.token })).body;
    expect(asReader).toMatchObject({ text: 'views', likes: 1, liked: true });
    expect(asReader).not.toHaveProperty('likedBy');
    expect((await call(app.url, 'GET', item, { token: author.token })).body).toMatchObject({
      likedBy: [idOf(reader.user)],
      liked: false,
    });
    expect((await call(app.url, 'GET', item, { token: admin.token })).body).toMatchObject({
      likedBy: [idOf(reader.user)],
      liked: false,
    });
    // A page too; `likedBy` is not even selectable, and a $select of readable fields shows just those.
    expect((await call(app.url, 'GET', `/messages?$select[]=likedBy`, { token: reader.token })).status).toBe(400);
    const page = (
      await call(app.url, 'GET', `/messages?_id=${idOf(created.body)}&$select[]=text`, { token: reader.token })
    ).body;
    expect(page.data).toEqual([{ _id: idOf(created.body), text: 'views' }]);
  });

  it("shows everyone's name and only one's own e-mail; a query cannot probe another's e-mail", async () => {
    expect(
      (await call(app.url, 'PATCH', `/users/${idOf(author.user)}`, { token: author.token, body: { name: 'Ada' } }))
        .status,
    ).toBe(200);
    const seen = (await call(app.url, 'GET', `/users/${idOf(author.user)}`, { token: reader.token })).body;
    expect(seen).toEqual({ _id: idOf(author.user), name: 'Ada' });
    const probe = (
      await call(app.url, 'GET', `/users?email=${encodeURIComponent(author.user.email)}`, { token: reader.token })
    ).body;
    expect(probe.total).toBe(0);
    expect((await call(app.url, 'GET', `/users/${idOf(author.user)}`, { token: admin.token })).body).toMatchObject({
      email: author.user.email,
    });
    // Roles are the server's: nobody writes them through the API, admins included.
    expect(
      (await call(app.url, 'PATCH', `/users/${idOf(reader.user)}`, { token: admin.token, body: { roles: ['admin'] } }))
        .status,
    ).toBe(400);
  });

  it('sends each socket its own view of an event, and nothing to anonymous sockets', async () => {
    const [authorSocket, readerSocket, adminSocket] = [
      await signedInSocket(author),
      await signedInSocket(reader),
      await signedInSocket(admin),
    ];
    const anonymous = new RecordingSocket(app.url);
    sockets.push(anonymous);
    await anonymous.connected();
    const created = await call(app.url, 'POST', '/messages', { token: author.token, body: { text: 'event views' } });
    await call(app.url, 'PATCH', `/messages/${idOf(created.body)}`, {
      token: reader.token,
      body: { $inc: { likes: 1 } },
    });
    const patched = (socket: RecordingSocket) =>
      socket.named('messages patched').find((message) => idOf(message) === idOf(created.body));
    await waitFor(
      () => [authorSocket, readerSocket, adminSocket].every((socket) => patched(socket) !== undefined),
      'every signed-in socket hears the like',
    );
    expect(patched(authorSocket)).toMatchObject({ likedBy: [idOf(reader.user)], liked: false });
    expect(patched(adminSocket)).toMatchObject({ likedBy: [idOf(reader.user)], liked: false });
    expect(patched(readerSocket)).toMatchObject({ likes: 1, liked: true });
    expect(patched(readerSocket)).not.toHaveProperty('likedBy');
    // An admin removes someone else's message; everyone signed in hears it.
    expect((await call(app.url, 'DELETE', `/messages/${idOf(created.body)}`, { token: admin.token })).status).toBe(200);
    await waitFor(
      () =>
        [authorSocket, readerSocket].every((socket) =>
          socket.named('messages removed').some((message) => idOf(message) === idOf(created.body)),
        ),
      'the removal reaches both users',
    );
    expect(anonymous.dataEvents()).toEqual([]);
    // No frame to the reader ever carried who liked anything, nor anyone's e-mail.
    expect(JSON.stringify(readerSocket.events)).not.toContain('likedBy');
    expect(JSON.stringify(readerSocket.events)).not.toContain(author.user.email);
  });
});
