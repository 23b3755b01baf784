import { userChannel } from '../realtime-policy';
import { recordIdOf } from '../record-id';
import { defineService } from '../service-definition';
import { CreateUserDto, PatchUserDto, UpdateUserDto, UserRecordDto, UsersQueryDto } from './users.dto';
import { USER_IDENTITY } from './user-identity';
import { storedUsersHooks, usersHooks } from './users.hooks';

/**
 * Accounts: anyone signs up; signed-in users see each other's names; a user (or an admin) changes or removes an
 * account.
 */
export const usersService = defineService({
  path: USER_IDENTITY.path,
  description:
    'User accounts. Sign-up is public; signed-in users see every name; a user reads the rest of their own account ' +
    'and changes or removes only it (an admin: any).',
  methods: ['find', 'get', 'create', 'update', 'patch', 'remove'],
  dto: {
    create: CreateUserDto,
    update: UpdateUserDto,
    patch: PatchUserDto,
    query: UsersQueryDto,
    record: UserRecordDto,
  },
  paginate: { default: 10, max: 50 },
  indexes: [{ fields: { [USER_IDENTITY.loginField]: 1 }, unique: true }],
  hiddenFields: [USER_IDENTITY.passwordField],
  // A replacement (PUT) keeps what only operators and administrators set.
  serverOwnedFields: [USER_IDENTITY.rolesField, USER_IDENTITY.disabledField],
  policy: (caller, { can }) => {
    const { loginField, passwordField } = USER_IDENTITY;
    const ownFields = [loginField, passwordField, 'name'];
    can('create', ownFields);
    if (caller.anonymous) return;
    // Anyone signed in sees who is who; the rest of an account (e-mail, roles) is for its user.
    can('read', ['_id', 'name']);
    can('read', { _id: caller.id });
    // Roles are never written through the API (`npm run grant-role`).
    can(['update', 'patch'], ownFields, { _id: caller.id });
    can('remove', { _id: caller.id });
    if (caller.roles.includes('admin')) {
      can('read');
      can(['update', 'patch'], ownFields);
      // Disabling an account ends its sessions and refuses its logins.
      can('patch', [USER_IDENTITY.disabledField]);
      can('remove');
    }
  },
  // Sign-up is public; every other call needs a signed-in caller (the policy decides what they reach).
  authentication: { strategies: ['jwt'], publicMethods: ['create'] },
  hooks: { always: usersHooks, storedHere: storedUsersHooks },
  // A user's own connections only hear about that user.
  publish: (app) => (user: Record<string, unknown>) => {
    const id = recordIdOf(user);
    return id === undefined || id === null ? null : app.channel(userChannel(id));
  },
});
