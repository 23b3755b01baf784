import { copyWith } from '../../../domain/plain-record';
import { fieldsOf } from '../../validation/derived-dto';
import { defineService } from '../service-definition';
import { CreateMessageDto, MarkReadDto, MessageRecordDto, MessagesQueryDto, PatchMessageDto } from './messages.dto';
import { messagesHooks, storedMessagesHooks } from './messages.hooks';

/**
 * Chat messages: signed-in users post, list and like them; only the owner edits one; the owner or an admin removes it.
 */
export const messagesService = defineService({
  path: 'messages',
  description:
    'Chat messages. Anyone signed in reads and likes them; only the owner edits or marks one read; the owner or an ' +
    'admin removes it.',
  methods: ['find', 'get', 'create', 'update', 'patch', 'remove', 'markRead'],
  customMethods: {
    // Hooks narrow which messages qualify (the owner rule) through params.query.
    markRead: (store, data: MarkReadDto, params) =>
      store.patch(data.id, { read: true }, copyWith(params, { query: params.query ?? {} })),
  },
  dto: {
    create: CreateMessageDto,
    patch: PatchMessageDto,
    query: MessagesQueryDto,
    methods: { markRead: MarkReadDto },
    results: { markRead: 'record' },
    record: MessageRecordDto,
  },
  paginate: { default: 10, max: 50 },
  indexes: [{ fields: { userId: 1, createdAt: -1 } }],
  // `$inc` from clients (a like, as the patch DTO allows); `$addToSet`/`$pull` only from the like rule.
  updateOperators: ['$inc', '$addToSet', '$pull'],
  serverOwnedFields: ['userId', 'createdAt', 'read', 'likes', 'likedBy'],
  ownerField: 'userId',
  policy: (caller, { can }) => {
    if (caller.anonymous) return;
    // Every reader sees every queryable field of a message.
    can('read', ['_id', ...fieldsOf(MessagesQueryDto)]);
    // Who liked a message is for its author (and admins); every reader learns whether they did.
    can('read', ['likedBy'], { userId: caller.id });
    can('create', ['text']);
    // A like (`{ $inc: { likes: 1 } }`) is anyone's; the like hook records who liked.
    can('patch', ['likes']);
    can(['update', 'patch'], ['text', 'read'], { userId: caller.id });
    can(['remove', 'markRead'], { userId: caller.id });
    if (caller.roles.includes('admin')) {
      can('read');
      can('remove');
    }
  },
  // Every message answer and event names its author: one users call per page, as the caller.
  relations: { user: { service: 'users', field: 'userId', select: ['_id', 'name'] } },
  computedFields: { liked: (message, caller) => Array.isArray(message.likedBy) && message.likedBy.includes(caller.id) },
  // Every call needs a signed-in caller.
  authentication: { strategies: ['jwt'] },
  hooks: { always: messagesHooks, storedHere: storedMessagesHooks },
  // Everyone signed in hears messages events.
  publish: (app) => () => app.channel('authenticated'),
});
