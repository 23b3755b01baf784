import { listenHttp, type ListeningHttpServer } from '../../../src/adapters/http';
import { rest } from '../../../src/adapters/rest-client';
import type { ComposedApplication } from '../../../src/composition-root';
import { givenAuthApp, PASSWORD } from './auth-test-app';

describe('REST client against an authenticated server', () => {
  let composed: ComposedApplication;
  let server: ListeningHttpServer;
  let url: string;

  beforeAll(async () => {
    composed = await givenAuthApp({ rateLimit: false });
    server = await listenHttp(composed.http);
    url = server.url;
  });
  afterAll(async () => {
    await server.close();
    await composed.close();
  });

  it('signs up, logs in, and calls messages with the token in the client options', async () => {
    const anonymous = rest(url).fetch(fetch);
    const user = await anonymous.service('users').create({ email: 'ann@example.com', password: PASSWORD });
    expect(user).toEqual({ email: 'ann@example.com', _id: expect.stringMatching(/^[0-9a-f]{24}$/) });
    await expect(anonymous.service('messages').find()).rejects.toMatchObject({ name: 'NotAuthenticated', code: 401 });

    const login = await anonymous
      .service('authentication')
      .create({ strategy: 'local', email: 'ann@example.com', password: PASSWORD });
    expect(login).toMatchObject({
      accessToken: expect.any(String),
      authentication: { strategy: 'local' },
      user: { email: 'ann@example.com', _id: user._id },
    });

    const signedIn = rest(url).fetch(fetch, { headers: { Authorization: `Bearer ${login.accessToken}` } });
    const created = await signedIn.service('messages').create({ text: 'hello' });
    expect(created).toMatchObject({ text: 'hello', userId: user._id, read: false });
    const page = await signedIn.service('messages').find({ query: { userId: user._id } });
    expect(page).toMatchObject({ total: 1, data: [{ text: 'hello' }] });
  });

  it('authenticates per call through params.headers', async () => {
    const client = rest(url).fetch(fetch);
    const { accessToken } = await client
      .service('authentication')
      .create({ strategy: 'local', email: 'ann@example.com', password: PASSWORD });
    const messages = client.service('messages');
    await expect(messages.find({ headers: { Authorization: `Bearer ${accessToken}` } })).resolves.toMatchObject({
      total: 1,
    });
    await expect(messages.find({ headers: { Authorization: 'Bearer garbage' } })).rejects.toMatchObject({
      name: 'NotAuthenticated',
      message: 'jwt malformed',
    });
    // Logout through the client: DELETE /authentication with the bearer token.
    await expect(
      client.service('authentication').remove(null, { headers: { Authorization: `Bearer ${accessToken}` } }),
    ).resolves.toMatchObject({ accessToken });
  });
});
