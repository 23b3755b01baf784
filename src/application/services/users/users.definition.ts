import { recordIdOf } from '../../authentication/owner.hooks';
import { userChannel } from '../realtime-policy';
import { defineService } from '../service-definition';
import { CreateUserDto, PatchUserDto, UsersQueryDto } from './users.dto';
import { usersHooks } from './users.hooks';

/** Accounts: anyone signs up; a signed-in user changes or removes only their own. */
export const usersService = defineService({
  path: 'users',
  description: 'User accounts. Sign-up is public; a user changes or removes only their own account.',
  methods: ['find', 'get', 'create', 'update', 'patch', 'remove'],
  dto: { create: CreateUserDto, patch: PatchUserDto, query: UsersQueryDto },
  paginate: { default: 10, max: 50 },
  indexes: [{ fields: { email: 1 }, unique: true }],
  hiddenFields: ['password'],
  hooks: usersHooks,
  // A user's own connections only hear about that user.
  publish: (app) => (user: Record<string, unknown>) => {
    const id = recordIdOf(user);
    return id === undefined || id === null ? null : app.channel(userChannel(id));
  },
});
