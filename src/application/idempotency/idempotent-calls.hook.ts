import { Conflict, Unprocessable } from '../../domain/errors';
import { copyWith } from '../../domain/plain-record';
import type { HookContext } from '../hooks/hook-context';
import type { AroundHook, NextFunction } from '../hooks/hook-types';
import { labelled } from '../lifecycle/stage-label';
import { recordIdOf } from '../services/record-id';
import { IDEMPOTENCY_HEADER, IDEMPOTENCY_QUERY_KEY, parseIdempotencyKey } from './idempotency-key';
import type { IdempotencyRecords } from './idempotency-records';

/** How long a repeated request waits for the first one still running, and how often it looks. */
const WAIT_FOR_FIRST_MS = 5_000;
const POLL_MS = 50;
// Internal calls are the server's own: they skip the stage, wherever the hook is registered.
const STAGE = { stage: 'idempotency', slot: 'Idempotency-Key', externalOnly: true } as const;
/** The answer header of a repetition (as payment APIs name it), so a client can tell. */
export const REPLAYED_HEADER = 'idempotent-replayed';

/**
 * Writes with an `Idempotency-Key` (the header, or `$idempotencyKey` in the query of a socket
 * call) happen once: the first call with a key runs and its answer is kept (`IDEMPOTENCY_TTL_MS`);
 * the same request with the same key gets that answer again, without the work or its event;
 * while the first still runs a repetition waits for it (then 409); the same key with another
 * request is a 422. Keys belong to the caller (a signed-in user; anonymous calls by the request
 * itself), so one user's key never answers another's call. A call that fails frees its key.
 * The `idempotency` stage, of writes from transports: after authentication (it needs the caller)
 * and before everything else.
 */
export function idempotentCalls(records: IdempotencyRecords): AroundHook {
  return labelled(STAGE, async (context: HookContext, next: NextFunction): Promise<void> => {
    const key = keyOf(context);
    if (key === undefined) return next();
    const fingerprint = records.fingerprintOf({
      method: context.method,
      path: context.path,
      id: context.id,
      data: context.data,
      query: context.params.query,
    });
    const user = context.params.user ? recordIdOf(context.params.user) : undefined;
    // Anonymous calls (a sign-up) share no scope: only the very same request finds its answer.
    const scope =
      `${context.path}\u0000` +
      `${user === undefined || user === null ? `anonymous\u0000${fingerprint}` : `user\u0000${String(user)}`}\u0000` +
      `${key}`;
    const claim = await claimOrWait(records, scope, fingerprint);
    if (claim.state === 'mismatch')
      throw new Unprocessable('This Idempotency-Key was used with another request', {
        reason: 'idempotency-key-reused',
      });
    if (claim.state === 'running')
      throw new Conflict('A request with this Idempotency-Key is still being processed; try again later', {
        reason: 'idempotency-key-in-use',
      });
    if (claim.state === 'done') {
      context.result = claim.answer;
      context.dispatch = claim.answer;
      context.event = null;
      if (context.http) context.http.headers = copyWith(context.http.headers ?? {}, { [REPLAYED_HEADER]: 'true' });
      return;
    }
    try {
      await next();
    } catch (error) {
      await records.release(scope);
      throw error;
    }
    await records.complete(scope, context.dispatch ?? context.result);
  });
}

/** The key of the call, taken out of its query (the store knows nothing of it); undefined without one. */
function keyOf(context: HookContext): string | undefined {
  const query = context.params.query;
  let raw: unknown = context.params.headers?.[IDEMPOTENCY_HEADER];
  if (query && Object.hasOwn(query, IDEMPOTENCY_QUERY_KEY)) {
    const { [IDEMPOTENCY_QUERY_KEY]: fromQuery, ...rest } = query;
    raw ??= fromQuery;
    context.params = copyWith(context.params, { query: rest });
  }
  return raw === undefined ? undefined : parseIdempotencyKey(raw);
}

async function claimOrWait(records: IdempotencyRecords, scope: string, fingerprint: string) {
  const deadline = Date.now() + WAIT_FOR_FIRST_MS;
  for (;;) {
    const claim = await records.claim(scope, fingerprint);
    if (claim.state !== 'running' || Date.now() >= deadline) return claim;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
