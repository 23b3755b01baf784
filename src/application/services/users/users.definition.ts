import { userChannel } from '../realtime-policy';
import { recordIdOf } from '../record-id';
import { defineService } from '../service-definition';
import { CreateUserDto, PatchUserDto, UsersQueryDto } from './users.dto';
import { USER_IDENTITY } from './user-identity';
import { storedUsersHooks, usersHooks } from './users.hooks';

/** Accounts: anyone signs up; a signed-in user changes or removes only their own. */
export const usersService = defineService({
  path: USER_IDENTITY.path,
  description: 'User accounts. Sign-up is public; a user changes or removes only their own account.',
  methods: ['find', 'get', 'create', 'update', 'patch', 'remove'],
  dto: { create: CreateUserDto, patch: PatchUserDto, query: UsersQueryDto },
  paginate: { default: 10, max: 50 },
  indexes: [{ fields: { [USER_IDENTITY.loginField]: 1 }, unique: true }],
  hiddenFields: [USER_IDENTITY.passwordField],
  hooks: { always: usersHooks, storedHere: storedUsersHooks },
  // A user's own connections only hear about that user.
  publish: (app) => (user: Record<string, unknown>) => {
    const id = recordIdOf(user);
    return id === undefined || id === null ? null : app.channel(userChannel(id));
  },
});
