import 'reflect-metadata';
import { createApp } from '../../../../src/application/app/application';
import { messagesService } from '../../../../src/application/services/messages/messages.definition';
import { registerService } from '../../../../src/application/services/register-service';
import { usersService } from '../../../../src/application/services/users/users.definition';
import { MemoryService } from '../../../../src/adapters/memory';
import type { ServiceMethods } from '../../../../src/ports/service.port';

function givenApp() {
  const app = createApp();
  const dependencies = {
    passwordHasher: {
      hash: async (password: string) => `hashed:${password}`,
      compare: async () => false,
      needsRehash: () => false,
    },
    storesLocally: true,
  };
  const store = () => new MemoryService({ id: '_id', paginate: { default: 10, max: 50 } }) as unknown as ServiceMethods;
  registerService(app, messagesService, store(), dependencies);
  registerService(app, usersService, store(), dependencies);
  return app;
}

// Messages need an authenticated caller over transports; these tests are about validation.
const external = { provider: 'rest', authenticated: true, user: { id: 'u1' } };

describe('validateData (messages and users DTOs)', () => {
  it('accepts valid data and stamps server-owned fields', async () => {
    const app = givenApp();
    const created = await app.service('messages').create({ text: 'hello', userId: 'u1' });
    expect(created).toMatchObject({ text: 'hello', userId: 'u1', read: false });
    expect(typeof created.createdAt).toBe('number');
  });

  it('refuses unknown fields and bad values with per-field errors', async () => {
    const app = givenApp();
    await expect(app.service('messages').create({ text: 'x', admin: true })).rejects.toMatchObject({
      name: 'BadRequest',
      errors: { admin: expect.any(Array) },
    });
    await expect(app.service('messages').create({ text: 42 })).rejects.toMatchObject({
      name: 'BadRequest',
      errors: { text: expect.any(Array) },
    });
    await expect(app.service('users').create({ email: 'not-an-email', password: 'long enough' })).rejects.toMatchObject(
      {
        name: 'BadRequest',
        errors: { email: expect.any(Array) },
      },
    );
  });

  it('does not let a client set read or createdAt on create', async () => {
    const app = givenApp();
    await expect(app.service('messages').create({ text: 'x', read: true })).rejects.toMatchObject({
      name: 'BadRequest',
    });
  });

  it('validates each item of an array', async () => {
    const app = givenApp();
    app.service('messages'); // multi is off: the adapter refuses arrays after validation passes
    await expect(app.service('messages').create([{ text: 'a' }, { text: 3 }])).rejects.toMatchObject({
      name: 'BadRequest',
    });
  });

  it('skips missing fields on patch but still checks the given ones', async () => {
    const app = givenApp();
    const created = await app.service('messages').create({ text: 'a' });
    await expect(app.service('messages').patch(created._id, { read: true })).resolves.toMatchObject({
      read: true,
      text: 'a',
    });
    await expect(app.service('messages').patch(created._id, { read: 'yes' })).rejects.toMatchObject({
      name: 'BadRequest',
      errors: { read: expect.any(Array) },
    });
  });
});

describe('validateQuery', () => {
  it('converts URL strings to the declared types', async () => {
    const app = givenApp();
    const first = await app.service('messages').create({ text: 'a' });
    await app.service('messages').markRead({ id: String(first._id) });
    await app.service('messages').create({ text: 'b' });
    const read = await app.service('messages').find({ ...external, query: { read: 'true' } });
    expect(read.data.map((m: { text: string }) => m.text)).toEqual(['a']);
    const recent = await app.service('messages').find({ ...external, query: { createdAt: { $gte: '0' } } });
    expect(recent.total).toBe(2);
    const iso = await app
      .service('messages')
      .find({ ...external, query: { createdAt: { $gte: '2000-01-01T00:00:00Z' } } });
    expect(iso.total).toBe(2);
    const inList = await app.service('messages').find({ ...external, query: { text: { $in: ['a', 'zzz'] } } });
    expect(inList.total).toBe(1);
  });

  it('converts values inside $or branches', async () => {
    const app = givenApp();
    await app.service('messages').create({ text: 'a' });
    const page = await app.service('messages').find({ query: { $or: [{ read: 'false' }, { text: 'nope' }] } });
    expect(page.total).toBe(1);
  });

  it('refuses unknown fields, unparseable values and hidden fields', async () => {
    const app = givenApp();
    await expect(app.service('messages').find({ query: { secret: 'x' } })).rejects.toMatchObject({
      name: 'BadRequest',
    });
    await expect(app.service('messages').find({ query: { read: 'maybe' } })).rejects.toMatchObject({
      name: 'BadRequest',
    });
    await expect(app.service('messages').find({ query: { createdAt: 'yesterday' } })).rejects.toMatchObject({
      name: 'BadRequest',
    });
    await expect(app.service('users').find({ query: { password: 'x' } })).rejects.toMatchObject({ name: 'BadRequest' });
  });

  it('refuses $sort and $select on fields the query DTO does not declare, like any unknown field', async () => {
    const app = givenApp();
    const find = (query: Record<string, unknown>) => app.service('messages').find({ ...external, query });
    await expect(find({ $sort: { nope: 1 } })).rejects.toMatchObject({
      name: 'BadRequest',
      message: "'nope' is not a sortable field",
    });
    await expect(find({ $select: ['text', 'nope'] })).rejects.toMatchObject({
      name: 'BadRequest',
      message: "'nope' is not a selectable field",
    });
    await expect(find({ $sort: { createdAt: -1, _id: 1 }, $select: ['text', '_id'] })).resolves.toMatchObject({
      total: 0,
    });
    await expect(app.service('users').find({ ...external, query: { $select: ['password'] } })).rejects.toMatchObject({
      name: 'BadRequest',
    });
  });

  it('always lets the id field through', async () => {
    const app = givenApp();
    const created = await app.service('messages').create({ text: 'a' });
    const page = await app.service('messages').find({ query: { _id: created._id } });
    expect(page.total).toBe(1);
  });
});

describe('custom method markRead', () => {
  it('marks a message read and validates its data', async () => {
    const app = givenApp();
    const created = await app.service('messages').create({ text: 'a' });
    await expect(app.service('messages').markRead({ id: String(created._id) })).resolves.toMatchObject({ read: true });
    await expect(app.service('messages').markRead({ id: { $ne: null } })).rejects.toMatchObject({ name: 'BadRequest' });
  });
});

describe('users hide the password from external calls', () => {
  it('keeps it for internal calls and strips it for external ones', async () => {
    const app = givenApp();
    const external = await app.execute('users', 'create', {
      data: { email: 'a@example.com', password: 'long enough' },
      params: { provider: 'rest' },
    });
    expect(external.dispatch).not.toHaveProperty('password');
    const internal = await app.service('users').get(external.result._id);
    expect(internal).toHaveProperty('password');
  });
});
