import { defineService } from '../service-definition';
import { CreateMessageDto, MarkReadDto, MessagesQueryDto, PatchMessageDto } from './messages.dto';
import { messagesHooks, storedMessagesHooks } from './messages.hooks';

/** Chat messages: signed-in users post, list and like them; only the owner changes or removes one. */
export const messagesService = defineService({
  path: 'messages',
  description: 'Chat messages. Anyone signed in reads and likes them; only the owner changes, removes or marks one read.',
  methods: ['find', 'get', 'create', 'update', 'patch', 'remove', 'markRead'],
  customMethods: {
    // Hooks narrow which messages qualify (the owner rule) through params.query.
    markRead: (store, data: MarkReadDto, params) => store.patch(data.id, { read: true }, { ...params, query: params.query ?? {} }),
  },
  dto: { create: CreateMessageDto, patch: PatchMessageDto, query: MessagesQueryDto, methods: { markRead: MarkReadDto } },
  paginate: { default: 10, max: 50 },
  indexes: [{ fields: { userId: 1, createdAt: -1 } }],
  // `$inc` from clients (a like, as the patch DTO allows); `$addToSet`/`$pull` only from the like rule.
  updateOperators: ['$inc', '$addToSet', '$pull'],
  serverOwnedFields: ['userId', 'createdAt', 'read', 'likes', 'likedBy'],
  ownerField: 'userId',
  hooks: { always: messagesHooks, storedHere: storedMessagesHooks },
  // Everyone signed in hears messages events.
  publish: (app) => () => app.channel('authenticated'),
});
