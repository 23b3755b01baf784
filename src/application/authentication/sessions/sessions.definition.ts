import type { HookContext } from '../../hooks/hook-context';
import { defineService } from '../../services/service-definition';
import { SESSION_SECRET_FIELDS } from './session-record';
import { SessionsQueryDto, SessionWriteDto } from './sessions.dto';

/** Session records hold refresh token hashes: no change to them is ever published (revocations travel on their own). */
function suppressEvents(context: HookContext): void {
  context.event = null;
}

/**
 * `GET /sessions` lists the caller's own sessions, `DELETE /sessions/:id` ends one of them (and
 * `DELETE /sessions` all of them). Nobody sees or ends another user's: the policy makes someone
 * else's session a 404. Sessions are written by the authentication service only.
 */
export const sessionsService = defineService({
  path: 'sessions',
  description:
    'The sessions (logins) of the signed-in user: when each started and was last used, from which client. Ending one ' +
    'refuses its tokens at once.',
  methods: ['find', 'get', 'remove'],
  dto: { create: SessionWriteDto, patch: SessionWriteDto, query: SessionsQueryDto },
  id: { type: 'uuid' },
  paginate: { default: 20, max: 100 },
  multi: ['remove'],
  indexes: [{ fields: { userId: 1 } }, { fields: { expiresAt: 1 }, expireAfterSeconds: 0 }],
  hiddenFields: SESSION_SECRET_FIELDS,
  serverOwnedFields: ['userId'],
  policy: (caller, { can }) => {
    if (caller.anonymous) return;
    can('read', ['_id', 'createdAt', 'lastUsedAt', 'expiresAt', 'userAgent', 'address'], { userId: caller.id });
    can('remove', { userId: caller.id });
  },
  // Internal calls (the authentication service's) pass without a credential.
  authentication: { strategies: ['jwt'] },
  hooks: { always: () => ({ before: { all: [suppressEvents] } }) },
});
