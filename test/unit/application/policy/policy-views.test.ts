import { PolicyViews } from '../../../../src/application/policy/policy-views';
import type { ServicePolicy } from '../../../../src/application/policy/service-policy';

const policy: ServicePolicy = (caller, { can }) => {
  if (caller.anonymous) return;
  can('read', ['_id', 'text', 'userId']);
  can('read', ['likedBy'], { userId: caller.id });
};

const views = (options: { hiddenFields?: string[] } = {}) =>
  new PolicyViews({
    path: 'messages',
    policy,
    rolesField: 'roles',
    idField: '_id',
    hiddenFields: options.hiddenFields ?? [],
  });

describe('PolicyViews answers', () => {
  const bob = { user: { _id: 'bob', roles: [] } };

  it(
    'answers a record with nothing to leave out as it is, and copies one ' +
      'with a field the caller may not read, without it',
    () => {
      const answers = views();
      const plain = { _id: 'm1', text: 'hello', userId: 'alice' };
      const liked = { _id: 'm2', text: 'liked', userId: 'alice', likedBy: ['bob'] };
      const page = answers.answer(bob, { total: 2, limit: 10, skip: 0, data: [plain, liked] }) as {
        data: Record<string, unknown>[];
      };
      expect(page.data[0]).toBe(plain);
      expect(page.data[1]).not.toBe(liked);
      expect(page.data[1]).toEqual({ _id: 'm2', text: 'liked', userId: 'alice' });
      // The owner reads likedBy: the record again is its own view.
      const own = { _id: 'm3', text: 'mine', userId: 'bob', likedBy: [] };
      expect(answers.answer(bob, own)).toBe(own);
    },
  );

  it(
    'answers a page or a list whose every record is its own view as it is, ' +
      'and copies it from the first record that is not',
    () => {
      const answers = views();
      const first = { _id: 'm1', text: 'one', userId: 'alice' };
      const second = { _id: 'm2', text: 'two', userId: 'carol' };
      const page = { total: 2, limit: 10, skip: 0, data: [first, second] };
      expect(answers.answer(bob, page)).toBe(page);
      const list = [first, second];
      expect(answers.answer(bob, list)).toBe(list);

      const liked = { _id: 'm3', text: 'three', userId: 'alice', likedBy: ['bob'] };
      const mixed = [first, liked, second];
      const answered = answers.answer(bob, mixed) as Record<string, unknown>[];
      expect(answered).not.toBe(mixed);
      expect(mixed).toEqual([first, liked, second]);
      expect(answered).toEqual([first, { _id: 'm3', text: 'three', userId: 'alice' }, second]);
      expect(answered[0]).toBe(first);
      expect(answered[2]).toBe(second);
    },
  );

  it('leaves out of a page the records the caller may not read, keeping the others in order', () => {
    const onlyOwn: ServicePolicy = (caller, { can }) => {
      if (!caller.anonymous) can('read', { userId: caller.id });
    };
    const answers = new PolicyViews({
      path: 'messages',
      policy: onlyOwn,
      rolesField: 'roles',
      idField: '_id',
      hiddenFields: [],
    });
    const mine = { _id: 'm1', userId: 'bob' };
    const theirs = { _id: 'm2', userId: 'alice' };
    const alsoMine = { _id: 'm3', userId: 'bob' };
    const page = answers.answer(bob, { total: 3, limit: 10, skip: 0, data: [mine, theirs, alsoMine] }) as {
      data: unknown[];
    };
    expect(page.data).toEqual([mine, alsoMine]);
  });

  it('never answers a hidden field, even where every other field is readable', () => {
    const answers = views({ hiddenFields: ['userId'] });
    const record = { _id: 'm1', text: 'hello', userId: 'alice' };
    expect(answers.answer(bob, record)).toEqual({ _id: 'm1', text: 'hello' });
  });
});
