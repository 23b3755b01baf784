import { copyWith } from '../../../domain/plain-record';
import { BadRequest, NotFound } from '../../../domain/errors';
import { userIdOf } from '../../authentication/owner.hooks';
import type { HookContext } from '../../hooks/hook-context';
import type { HookMap } from '../../hooks/hook-types';

/** Server-owned fields of a new message: set here, never taken from the client. */
function stampNewMessage(context: HookContext): void {
  const stamp = (item: Record<string, unknown>) => copyWith(item, { read: false, likes: 0, createdAt: Date.now() });
  context.data = Array.isArray(context.data) ? context.data.map(stamp) : stamp(context.data);
}

/** A like alone (`{ $inc: { likes } }`): anyone signed in may like any message. */
function isOnlyALike(data: unknown): boolean {
  if (typeof data !== 'object' || data === null) return false;
  const keys = Object.keys(data);
  return keys.length === 1 && keys[0] === '$inc';
}

/**
 * One like per user: a like (`{ $inc: { likes: 1 } }`, a patch of its own) also records the user
 * in `likedBy`, on the condition that they are not there yet (an unlike, `-1`: that they are), so
 * concurrent likes of one user count once. A like that changes nothing (already liked, or not
 * liked) answers with the message as it is.
 */
function oneLikePerUser(context: HookContext): void {
  const data = context.data as Record<string, unknown>;
  if (data?.$inc === undefined) return;
  const amount = (data.$inc as { likes?: unknown } | null)?.likes;
  const user = context.params.user;
  if (!user || (amount !== 1 && amount !== -1)) return;
  const liker = userIdOf(user);
  const query = { ...context.params.query };
  context.params = copyWith(context.params, {
    query: copyWith(query, { likedBy: amount > 0 ? { $ne: liker } : liker }),
    likeConditions: query,
  });
  context.data =
    amount > 0
      ? { $inc: { likes: 1 }, $addToSet: { likedBy: liker } }
      : { $inc: { likes: -1 }, $pull: { likedBy: liker } };
}

/** The answer to a like that changed nothing: the message itself (still a 404 when there is none). */
async function answerUnchangedLike(context: HookContext): Promise<void> {
  const conditions = context.params.likeConditions as Record<string, unknown> | undefined;
  if (!conditions || !(context.error instanceof NotFound) || context.id === null) return;
  const { provider: _p, ...params } = context.params;
  context.result = await context.service.get(
    context.id,
    copyWith(params, { query: conditions, likeConditions: undefined }),
  );
}

/** A like (`{ $inc: { likes: 1 } }` or -1) carries nothing else: it is the one write anyone may make. */
function likeIsAPatchOfItsOwn(context: HookContext): void {
  const data = context.data as Record<string, unknown> | undefined;
  if (data?.$inc !== undefined && !isOnlyALike(data))
    throw new BadRequest('A like ({ $inc: { likes: 1 } } or -1) is a patch of its own');
}

/** A like is a patch of its own, wherever messages are stored. */
export function messagesHooks(): HookMap {
  return { before: { patch: [likeIsAPatchOfItsOwn] } };
}

/**
 * Where messages are stored: new messages get the server-owned fields (the `store` stage has made
 * the caller their owner first), and a like records who liked. Who may do what is the definition's
 * policy (the `scope` stage, before these); data and queries are validated by the DTOs first.
 */
export function storedMessagesHooks(): HookMap {
  return {
    before: { create: [stampNewMessage], patch: [oneLikePerUser] },
    error: { patch: [answerUnchangedLike] },
  };
}
