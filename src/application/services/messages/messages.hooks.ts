import { authenticate } from '../../authentication/authenticate.hook';
import { restrictToOwner, setOwner } from '../../authentication/owner.hooks';
import type { HookContext } from '../../hooks/hook-context';
import type { HookMap } from '../../hooks/hook-types';
import type { ServiceDependencies } from '../service-definition';

/** Server-owned fields of a new message: set here, never taken from the client. */
function stampNewMessage(context: HookContext): void {
  const stamp = (item: Record<string, unknown>) => ({ ...item, read: false, likes: 0, createdAt: Date.now() });
  context.data = Array.isArray(context.data) ? context.data.map(stamp) : stamp(context.data);
}

/** A like alone (`{ $inc: { likes } }`): anyone signed in may like any message. */
function isOnlyALike(data: unknown): boolean {
  if (typeof data !== 'object' || data === null) return false;
  const keys = Object.keys(data);
  return keys.length === 1 && keys[0] === '$inc';
}

/** Only the owner changes, replaces, removes or marks read a message; a like is anyone's. */
function restrictChangesToOwner() {
  const ownerOnly = restrictToOwner('userId');
  return (context: HookContext): void => {
    if (context.method === 'patch' && isOnlyALike(context.data)) return;
    ownerOnly(context);
  };
}

/**
 * Every external call needs a valid token; new messages belong to the authenticated user, and
 * only the owner may change or remove one (anyone may like it). Data and queries are validated by
 * the definition's DTOs before these run.
 * When the store is another server (`storesLocally: false`), that server stamps its own
 * server-owned fields, so they are not set (and sent) here.
 */
export function messagesHooks({ storesLocally }: ServiceDependencies): HookMap {
  if (!storesLocally) return { around: { all: [authenticate('jwt')] } };
  const owner = setOwner('userId');
  const ownerOnly = restrictChangesToOwner();
  return {
    around: { all: [authenticate('jwt')] },
    before: {
      create: [owner, stampNewMessage],
      // A replacement keeps the owner rule of create, so `PUT` cannot attribute a message to someone else.
      update: [ownerOnly, owner],
      patch: [ownerOnly],
      remove: [ownerOnly],
      markRead: [ownerOnly],
    },
  };
}
