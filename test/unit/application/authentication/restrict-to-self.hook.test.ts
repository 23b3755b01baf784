import { createApp } from '../../../../src/application/app/application';
import { restrictToSelf } from '../../../../src/application/authentication/restrict-to-self.hook';
import { MemoryService } from '../../../../src/adapters/memory';

function givenUsers(idField?: string) {
  const app = createApp();
  app.use('users', new MemoryService({ multi: true, store: { 0: { id: 0, name: 'ann' }, 1: { id: 1, name: 'bob' } } }));
  const hook = restrictToSelf({ idField });
  app.service('users').hooks({ before: { update: [hook], patch: [hook], remove: [hook] } });
  return app.service('users');
}

describe('restrictToSelf hook', () => {
  const asAnn = { provider: 'rest', user: { id: 0 } };

  it('lets a user change their own record (id from the URL is a string)', async () => {
    await expect(givenUsers().patch('0', { name: 'Ann' }, asAnn)).resolves.toMatchObject({ name: 'Ann' });
  });

  it('refuses another record and multi-record calls with 403', async () => {
    const users = givenUsers();
    await expect(users.patch(1, { name: 'x' }, asAnn)).rejects.toMatchObject({ name: 'Forbidden', code: 403 });
    await expect(users.update(1, { name: 'x' }, asAnn)).rejects.toMatchObject({ code: 403 });
    await expect(users.remove(1, asAnn)).rejects.toMatchObject({ code: 403 });
    await expect(users.patch(null, { name: 'x' }, asAnn)).rejects.toMatchObject({ code: 403 });
    await expect(users.remove(null, asAnn)).rejects.toMatchObject({ code: 403 });
  });

  it('refuses an external call without a user with 401, and lets internal calls through', async () => {
    const users = givenUsers();
    await expect(users.patch(0, { name: 'x' }, { provider: 'rest' })).rejects.toMatchObject({ code: 401 });
    await expect(users.patch(1, { name: 'internal' })).resolves.toMatchObject({ name: 'internal' });
  });

  it('compares with _id or the configured field', async () => {
    await expect(givenUsers().patch(1, { name: 'x' }, { provider: 'rest', user: { _id: 1 } })).resolves.toMatchObject({
      name: 'x',
    });
    await expect(
      givenUsers('uid').patch(1, { name: 'x' }, { provider: 'rest', user: { id: 1, uid: 'u-1' } }),
    ).rejects.toMatchObject({ code: 403 });
  });
});
