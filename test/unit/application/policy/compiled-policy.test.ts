import { Query as MingoQuery } from 'mingo';
import { ANONYMOUS, callerOf, type Caller } from '../../../../src/application/policy/caller';
import { CompiledPolicy } from '../../../../src/application/policy/compiled-policy';
import { PolicyCache } from '../../../../src/application/policy/policy-cache';
import type { ServicePolicy } from '../../../../src/application/policy/service-policy';
import { writtenFields } from '../../../../src/application/policy/written-fields';

/**
 * A chat's rules: everyone signed in reads and likes; owners edit; owners and admins remove;
 * `likedBy` for the owner and admins.
 */
const messagesPolicy: ServicePolicy = (caller, { can, cannot }) => {
  if (caller.anonymous) return;
  can('read', ['_id', 'text', 'userId', 'likes']);
  can('read', ['likedBy'], { userId: caller.id });
  can('create', ['text']);
  can('patch', ['likes']);
  can(['update', 'patch'], ['text', 'read'], { userId: caller.id });
  can(['remove', 'markRead'], { userId: caller.id });
  cannot('remove', { pinned: true });
  if (caller.roles.includes('admin')) {
    can('read');
    can('remove');
  }
};

const alice: Caller = { id: 'alice', roles: [], anonymous: false };
const bob: Caller = { id: 'bob', roles: [], anonymous: false };
const admin: Caller = { id: 'root', roles: ['admin'], anonymous: false };

const records = [
  { _id: 'm1', text: 'from alice', userId: 'alice', likes: 1, likedBy: ['bob'] },
  { _id: 'm2', text: 'from bob', userId: 'bob', likes: 0, likedBy: [] },
  { _id: 'm3', text: 'pinned, alice', userId: 'alice', likes: 0, likedBy: [], pinned: true },
];

/** The records a condition selects, matched the way the memory store matches (mingo). */
function selected(condition: Record<string, unknown> | null): string[] {
  if (condition === null) return [];
  const query = new MingoQuery(condition);
  return records.filter((record) => query.test(record)).map((record) => record._id);
}

const compile = (caller: Caller) => new CompiledPolicy('messages', messagesPolicy, caller);

describe("CompiledPolicy: one caller's rules as store conditions and visible fields", () => {
  it('reads: every record for a signed-in user, none for anonymous', () => {
    expect(selected(compile(alice).readCondition())).toEqual(['m1', 'm2', 'm3']);
    expect(compile(ANONYMOUS).readCondition()).toBeNull();
    expect(compile(ANONYMOUS).allows('read')).toBe(false);
  });

  it('shows likedBy to the message owner and admins only', () => {
    expect(compile(alice).shownFields(records[0])?.fields).toEqual(
      expect.arrayContaining(['_id', 'text', 'userId', 'likes', 'likedBy']),
    );
    expect(compile(bob).shownFields(records[0])?.fields).toEqual(['_id', 'text', 'userId', 'likes']);
    expect(compile(admin).shownFields(records[0])?.fields).toEqual(expect.arrayContaining(['likedBy', 'text']));
    expect(compile(ANONYMOUS).shownFields(records[0])?.fields).toBeUndefined();
  });

  it(
    "shows a rule without fields as each record's own fields, records of other " +
      'shapes included, less what an inverted rule takes away',
    () => {
      const everythingButSecret: ServicePolicy = (caller, { can, cannot }) => {
        if (caller.anonymous) return;
        can('read');
        cannot('read', ['secret']);
        can('read', ['secret'], { userId: caller.id });
      };
      const compiled = new CompiledPolicy('messages', everythingButSecret, alice);
      const short = { _id: 'm1', text: 'a' };
      const longer = { _id: 'm2', text: 'b', pinned: true, secret: 's', userId: 'bob' };
      const own = { _id: 'm3', text: 'c', pinned: false, secret: 's', userId: 'alice' };
      for (let round = 0; round < 2; round += 1) {
        expect([...compiled.shownFields(short)!.fields].sort()).toEqual(['_id', 'text']);
        expect([...compiled.shownFields(longer)!.fields].sort()).toEqual(['_id', 'pinned', 'text', 'userId']);
        expect([...compiled.shownFields({ ...longer, extra: 1 })!.fields].sort()).toEqual([
          '_id',
          'extra',
          'pinned',
          'text',
          'userId',
        ]);
        expect([...compiled.shownFields(own)!.fields].sort()).toEqual(['_id', 'pinned', 'secret', 'text', 'userId']);
        // The same names in another order are worked out again, with the same answer.
        expect([...compiled.shownFields({ text: 'd', _id: 'm4' })!.fields].sort()).toEqual(['_id', 'text']);
      }
    },
  );

  it("scopes a patch by the fields it writes: a like reaches any message, an edit only the owner's", () => {
    const like = compile(bob).scope('patch', writtenFields({ $inc: { likes: 1 } }));
    expect(like.allowed && selected(like.condition)).toEqual(['m1', 'm2', 'm3']);
    const edit = compile(bob).scope('patch', writtenFields({ text: 'changed' }));
    expect(edit.allowed && selected(edit.condition)).toEqual(['m2']);
  });

  it('names the fields no rule lets the caller write', () => {
    expect(compile(bob).scope('patch', ['userId'])).toEqual({ allowed: false, refusedFields: ['userId'] });
    // Each allowed alone, never together: the write as a whole is refused.
    expect(compile(bob).scope('patch', ['text', 'likes'])).toEqual({
      allowed: false,
      refusedFields: ['text', 'likes'],
    });
  });

  it("removes: the owner's unpinned messages; an admin's rule comes later and wins over the pin", () => {
    const own = compile(alice).scope('remove', []);
    expect(own.allowed && selected(own.condition)).toEqual(['m1']);
    const any = compile(admin).scope('remove', []);
    expect(any.allowed && selected(any.condition)).toEqual(['m1', 'm2', 'm3']);
    expect(compile(ANONYMOUS).scope('remove', [])).toEqual({ allowed: false, refusedFields: [] });
  });

  it('checks a new record against the create rules that cover its fields', () => {
    expect(compile(alice).allowsNew('create', { text: 'hi' }, ['text'])).toBe(true);
    expect(compile(alice).allowsNew('create', { text: 'hi', userId: 'bob' }, ['text', 'userId'])).toBe(false);
    expect(compile(ANONYMOUS).allowsNew('create', { text: 'hi' }, ['text'])).toBe(false);
  });
});

describe('CompiledPolicy: the visible fields of records matching the same rules are worked out once', () => {
  // Conditions with MongoDB's equality: the value, an array holding it, and null for a missing field.
  const policy: ServicePolicy = (caller, { can, cannot }) => {
    if (caller.anonymous) return;
    can('read', ['_id', 'text']);
    can('read', ['notes'], { members: caller.id });
    can('read', ['draft'], { archivedAt: null });
    can('read', ['score'], { 'stats.owner': caller.id });
    cannot('read', ['text'], { hidden: true });
  };
  const compiled = new CompiledPolicy('notes', policy, alice);

  it.each([
    [{ _id: 'a', text: 't', members: ['alice', 'bob'] }, ['_id', 'text', 'notes', 'draft']],
    [{ _id: 'b', text: 't', members: 'alice', archivedAt: 5 }, ['_id', 'text', 'notes']],
    [{ _id: 'c', text: 't', members: ['bob'], archivedAt: null, hidden: true }, ['_id', 'draft']],
    [{ _id: 'd', text: 't', stats: { owner: 'alice' } }, ['_id', 'text', 'draft', 'score']],
  ])('%j shows %j, as CASL decides it', (record, fields) => {
    expect([...(compiled.shownFields(record)?.fields ?? [])].sort()).toEqual([...fields].sort());
    // The same answer again, now from what was kept for that combination of matched rules.
    expect([...(compiled.shownFields({ ...record })?.fields ?? [])].sort()).toEqual([...fields].sort());
  });
});

describe('callerOf, writtenFields and PolicyCache', () => {
  it('takes the caller from params.user: id as a string, string roles only', () => {
    expect(callerOf({ user: { _id: 42, roles: ['admin', 7, null] } }, 'roles')).toEqual({
      id: '42',
      roles: ['admin'],
      anonymous: false,
    });
    expect(callerOf({}, 'roles')).toBe(ANONYMOUS);
  });

  it('counts the fields update operators change, by their top-level name', () => {
    expect(writtenFields({ text: 'a', $inc: { likes: 1 }, $set: { 'profile.name': 'x' } }).sort()).toEqual([
      'likes',
      'profile',
      'text',
    ]);
    expect(writtenFields([{ a: 1 }, { b: 2 }])).toEqual(['a', 'b']);
  });

  it("compiles once per caller and again when the caller's roles change", () => {
    let compilations = 0;
    const cache = new PolicyCache(
      'messages',
      (caller, rules) => {
        compilations++;
        messagesPolicy(caller, rules);
      },
      2,
    );
    expect(cache.for(alice)).toBe(cache.for({ ...alice }));
    expect(compilations).toBe(1);
    cache.for({ ...alice, roles: ['admin'] });
    expect(compilations).toBe(2);
    cache.for(bob);
    cache.for(alice);
    // Capacity 2: alice was the oldest and had to be compiled again.
    expect(compilations).toBe(4);
  });
});
