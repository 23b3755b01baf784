import { createApp } from '../../../../src/application/app/application';
import { hashPassword, REPLACED_HASH_PARAM } from '../../../../src/application/authentication/hash-password.hook';
import { MemoryService } from '../../../../src/adapters/memory';
import type { PasswordHasherPort } from '../../../../src/ports/password-hasher.port';

const hasher: PasswordHasherPort = {
  hash: async (password) => `hashed(${password})`,
  compare: async () => false,
  needsRehash: () => false,
};

function givenApp(field?: string) {
  const app = createApp();
  app.use('users', new MemoryService({ multi: true }));
  const hook = hashPassword(hasher, field);
  app.service('users').hooks({ before: { create: [hook], update: [hook], patch: [hook] } });
  return app.service('users');
}

describe('hashPassword hook', () => {
  it('hashes the password on create, update and patch, for arrays too', async () => {
    const users = givenApp();
    expect(await users.create({ email: 'a', password: 'pw' })).toEqual({ id: 0, email: 'a', password: 'hashed(pw)' });
    expect(await users.create([{ email: 'b', password: 'x' }, { email: 'c' }])).toEqual([
      { id: 1, email: 'b', password: 'hashed(x)' },
      { id: 2, email: 'c' },
    ]);
    expect(await users.update(0, { email: 'a', password: 'new' })).toMatchObject({ password: 'hashed(new)' });
    expect(await users.patch(0, { password: 'newer' })).toMatchObject({ password: 'hashed(newer)' });
  });

  it('leaves data without the field, or with a non-string, unchanged', async () => {
    const users = givenApp();
    await users.create({ email: 'a', password: 'pw' });
    expect(await users.patch(0, { email: 'z' })).toEqual({ id: 0, email: 'z', password: 'hashed(pw)' });
    expect(await users.patch(0, { password: 42 })).toMatchObject({ password: 42 });
  });

  it('hashes another field when told', async () => {
    const users = givenApp('secret');
    expect(await users.create({ secret: 's', password: 'plain' })).toMatchObject({
      secret: 'hashed(s)',
      password: 'plain',
    });
  });

  it('replaces a hash a login verified only while the record still holds it', async () => {
    const users = givenApp();
    await users.create({ email: 'a', password: 'pw' });
    expect(await users.patch(0, { password: 'pw' }, { [REPLACED_HASH_PARAM]: 'hashed(pw)' })).toMatchObject({
      password: 'hashed(pw)',
    });
    // The password changed since the login read it: nothing is written.
    await users.patch(0, { password: 'new' });
    await expect(users.patch(0, { password: 'pw' }, { [REPLACED_HASH_PARAM]: 'hashed(pw)' })).rejects.toMatchObject({
      name: 'NotFound',
    });
    expect(await users.get(0)).toMatchObject({ password: 'hashed(new)' });
  });
});
