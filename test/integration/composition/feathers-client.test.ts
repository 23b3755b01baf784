import 'reflect-metadata';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import authenticationClient from '@feathersjs/authentication-client';
import { feathers } from '@feathersjs/feathers';
import restClient from '@feathersjs/rest-client';
import { composeApplication, type ComposedApplication } from '../../../src/composition-root';
import { loadConfig } from '../../../src/composition/load-config';

const PASSWORD = 'correct horse battery';

/** The stock Feathers v5 client (REST over fetch, with its authentication client). */
function feathersClient(url: string) {
  const client = feathers();
  const connection = restClient(url).fetch(fetch);
  client.configure(connection);
  client.configure(authenticationClient());
  client.use('messages', connection.service('messages'), {
    methods: ['find', 'get', 'create', 'update', 'patch', 'remove', 'markRead'],
  });
  return client;
}

describe.each(['memory', 'mongo'])('the stock Feathers client against the example app on the %s store', (store) => {
  let composed: ComposedApplication;
  let server: Server;
  let url: string;

  beforeAll(async () => {
    const config = loadConfig({
      NODE_ENV: 'test',
      STORE: store,
      DATA_DIR: ':memory:',
      AUTH_SECRET: 'a-test-secret-that-is-long-enough-0123456789',
      PASSWORD_HASH_COST: '10',
    });
    composed = await composeApplication(config);
    server = createServer(composed.http);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await composed.close();
  });

  it('signs up, logs in, and runs every messages method, markRead included', async () => {
    const client = feathersClient(url);
    const ann = await client.service('users').create({ email: 'ann@example.com', password: PASSWORD });
    expect(ann).toEqual({ _id: expect.stringMatching(/^[0-9a-f]{24}$/), email: 'ann@example.com' });
    const login = await client.authenticate({ strategy: 'local', email: 'ann@example.com', password: PASSWORD });
    expect(login.user).toEqual(ann);

    const messages = client.service('messages') as any;
    const created = await messages.create({ text: 'hello' });
    expect(created).toMatchObject({ text: 'hello', userId: ann._id, read: false, likes: 0 });
    await expect(messages.get(created._id)).resolves.toMatchObject({ text: 'hello' });
    await expect(messages.find({ query: { userId: ann._id, $sort: { createdAt: -1 } } })).resolves.toMatchObject({
      total: 1,
      data: [{ _id: created._id }],
    });
    await expect(messages.patch(created._id, { text: 'edited' })).resolves.toMatchObject({ text: 'edited' });
    await expect(messages.update(created._id, { text: 'replaced' })).resolves.toMatchObject({
      text: 'replaced',
      userId: ann._id,
    });
    await expect(messages.markRead({ id: created._id })).resolves.toMatchObject({ _id: created._id, read: true });
    await expect(messages.remove(created._id)).resolves.toMatchObject({ _id: created._id });
    await expect(messages.get(created._id)).rejects.toMatchObject({ name: 'NotFound', code: 404 });

    await expect(client.reAuthenticate(true)).resolves.toMatchObject({ user: ann });
    await client.logout();
    await expect(messages.find()).rejects.toMatchObject({ name: 'NotAuthenticated', code: 401 });
  });

  it('finds records by ids from the URL inside $in, $nin and $ne', async () => {
    const client = feathersClient(url);
    await client.service('users').create({ email: 'bob@example.com', password: PASSWORD });
    await client.authenticate({ strategy: 'local', email: 'bob@example.com', password: PASSWORD });
    const messages = client.service('messages') as any;
    const [first, second] = await Promise.all([messages.create({ text: 'one' }), messages.create({ text: 'two' })]);
    const ids = [first._id, second._id];
    await expect(messages.find({ query: { _id: { $in: ids } } })).resolves.toMatchObject({ total: 2 });
    await expect(messages.find({ query: { _id: { $nin: ids }, userId: first.userId } })).resolves.toMatchObject({
      total: 0,
    });
    await expect(messages.find({ query: { _id: { $ne: first._id }, userId: first.userId } })).resolves.toMatchObject({
      total: 1,
      data: [{ _id: second._id }],
    });
    await expect(messages.find({ query: { _id: first._id } })).resolves.toMatchObject({ total: 1 });

    // The same over plain HTTP, on users: URL strings become ids inside $in.
    const { accessToken, user } = await client.get('authentication');
    const unknown = '0123456789abcdef01234567';
    const response = await fetch(`${url}/users?_id[$in][]=${user._id}&_id[$in][]=${unknown}`, {
      headers: { authorization: `Bearer ${accessToken}` },
    });
    expect(await response.json()).toMatchObject({ total: 1, data: [{ _id: user._id, email: 'bob@example.com' }] });
  });
});
