import { authenticate } from '../../authentication/authenticate.hook';
import type { HookContext } from '../../hooks/hook-context';
import type { HookMap } from '../../hooks/hook-types';
import { validateData } from '../../validation/validate-data.hook';
import { validateQuery } from '../../validation/validate-query.hook';
import { CreateMessageDto, MarkReadDto, MessagesQueryDto, PatchMessageDto } from './messages.dto';

/** Server-owned fields: set here, never taken from the client. */
function stampNewMessage(context: HookContext): void {
  const stamp = (item: Record<string, unknown>) => ({
    ...item,
    userId: context.params.user ? String(context.params.user.id ?? context.params.user._id) : item.userId,
    read: false,
    createdAt: Date.now(),
  });
  context.data = Array.isArray(context.data) ? context.data.map(stamp) : stamp(context.data);
}

/** Every external call needs a valid token; new messages belong to the authenticated user. */
export function messagesHooks(): HookMap {
  const checkQuery = validateQuery(MessagesQueryDto);
  return {
    around: { all: [authenticate('jwt')] },
    before: {
      find: [checkQuery],
      get: [checkQuery],
      create: [validateData(CreateMessageDto), stampNewMessage],
      update: [checkQuery, validateData(CreateMessageDto)],
      patch: [checkQuery, validateData(PatchMessageDto, { partial: true })],
      remove: [checkQuery],
      markRead: [validateData(MarkReadDto)],
    },
  };
}
