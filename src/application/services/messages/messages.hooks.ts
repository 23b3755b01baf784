import { authenticate } from '../../authentication/authenticate.hook';
import type { HookContext } from '../../hooks/hook-context';
import type { HookMap } from '../../hooks/hook-types';
import { validateData } from '../../validation/validate-data.hook';
import { validateQuery } from '../../validation/validate-query.hook';
import { CreateMessageDto, MarkReadDto, MessagesQueryDto, PatchMessageDto } from './messages.dto';

/** The owner is the authenticated user, never one the client names (internal callers may name one). */
function ownerOf(context: HookContext, item: Record<string, unknown>): unknown {
  return context.params.user ? String(context.params.user.id ?? context.params.user._id) : item.userId;
}

/** Server-owned fields: set here, never taken from the client. */
function stampNewMessage(context: HookContext): void {
  const stamp = (item: Record<string, unknown>) => ({ ...item, userId: ownerOf(context, item), read: false, likes: 0, createdAt: Date.now() });
  context.data = Array.isArray(context.data) ? context.data.map(stamp) : stamp(context.data);
}

/** A replacement keeps the owner rule of create, so `PUT` cannot attribute a message to someone else. */
function stampOwner(context: HookContext): void {
  context.data = { ...context.data, userId: ownerOf(context, context.data) };
}

/**
 * Every external call needs a valid token; new messages belong to the authenticated user.
 * When the store is another server (`storesLocally: false`), that server stamps its own
 * server-owned fields, so they are not set (and sent) here.
 */
export function messagesHooks(options: { storesLocally?: boolean } = {}): HookMap {
  const checkQuery = validateQuery(MessagesQueryDto);
  const stamps = options.storesLocally === false ? { create: [], update: [] } : { create: [stampNewMessage], update: [stampOwner] };
  return {
    around: { all: [authenticate('jwt')] },
    before: {
      find: [checkQuery],
      get: [checkQuery],
      create: [validateData(CreateMessageDto), ...stamps.create],
      update: [checkQuery, validateData(CreateMessageDto), ...stamps.update],
      patch: [checkQuery, validateData(PatchMessageDto, { partial: true })],
      remove: [checkQuery],
      markRead: [validateData(MarkReadDto)],
    },
  };
}
