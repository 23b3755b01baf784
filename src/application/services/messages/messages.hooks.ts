import { authenticate } from '../../authentication/authenticate.hook';
import type { HookContext } from '../../hooks/hook-context';
import type { HookMap } from '../../hooks/hook-types';
import type { ServiceDependencies } from '../service-definition';

/** How a user is named in `userId`: the id as a string, whatever the store's id field. */
function userIdOf(user: Record<string, any>): string {
  return String(user.id ?? user._id);
}

/** The owner is the authenticated user, never one the client names (internal callers may name one). */
function ownerOf(context: HookContext, item: Record<string, unknown>): unknown {
  return context.params.user ? userIdOf(context.params.user) : item.userId;
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

/** A like alone (`{ $inc: { likes } }`): anyone signed in may like any message. */
function isOnlyALike(data: unknown): boolean {
  if (typeof data !== 'object' || data === null) return false;
  const keys = Object.keys(data);
  return keys.length === 1 && keys[0] === '$inc';
}

/**
 * External callers change, replace, remove or mark read only their own messages: the owner joins
 * the query, so someone else's message is a 404 (its existence is not revealed).
 */
function restrictToOwner(context: HookContext): void {
  const { provider, user } = context.params;
  if (!provider || !user) return;
  if (context.method === 'patch' && isOnlyALike(context.data)) return;
  const owner = { userId: userIdOf(user) };
  // markRead takes no query from the URL; the owner is its only condition.
  const query = context.method === 'markRead' ? owner : { ...context.params.query, ...owner };
  context.params = { ...context.params, query };
}

/**
 * Every external call needs a valid token; new messages belong to the authenticated user, and
 * only the owner may change or remove one (anyone may like it). Data and queries are validated by
 * the definition's DTOs before these run.
 * When the store is another server (`storesLocally: false`), that server stamps its own
 * server-owned fields, so they are not set (and sent) here.
 */
export function messagesHooks({ storesLocally }: ServiceDependencies): HookMap {
  // The storing server owns these rules: its users, its owners and its stamps.
  const stamps = storesLocally ? { create: [stampNewMessage], update: [stampOwner] } : { create: [], update: [] };
  const ownerOnly = storesLocally ? [restrictToOwner] : [];
  return {
    around: { all: [authenticate('jwt')] },
    before: {
      create: [...stamps.create],
      update: [...ownerOnly, ...stamps.update],
      patch: [...ownerOnly],
      remove: [...ownerOnly],
      markRead: [...ownerOnly],
    },
  };
}
