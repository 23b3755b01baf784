import { NotAuthenticated, NotFound } from '../../../domain/errors';
import { copyWith } from '../../../domain/plain-record';
import type { Params } from '../../../ports/service-params';
import type { ServicePort } from '../../../ports/service.port';
import type { HookContext } from '../../hooks/hook-context';
import { internalCallParams } from '../../observability/internal-call-params';
import type { SessionRecord } from './session-record';
import { hashOpaqueToken, idOfOpaqueToken, newOpaqueToken } from './opaque-token';

export interface SessionRegistryOptions {
  /** The sessions service (internal calls), looked up per call. */
  sessions: () => ServicePort;
  /** How long a session lasts without a refresh (each refresh starts it again). */
  refreshTokenTtlMs: number;
  /**
   * How long a session seen active is trusted without reading it again; an ended one is known at once. Default 60 s.
   */
  recheckMs?: number;
  /** Sessions whose state is kept in memory at most. Default 10 000. */
  capacity?: number;
  now?: () => number;
}

/** Where a session ended: on this instance (which tells the others), or on another one. */
export type SessionEnd = 'here' | 'elsewhere';

/** Hashes of used refresh tokens kept per session: presenting one of these is taken for theft. */
const MAX_ROTATED_HASHES = 50;

const REVOKED = { reason: 'revoked' };

type Known = { active: false } | { active: true; userId: string; until: number };

/**
 * The sessions of this server: each login starts one; its refresh token turns into a new one at
 * every use (the used one is remembered, and presenting it again ends the session: someone else
 * holds a copy). A session ends when its record is removed (logout, password change, removal of
 * the user, `DELETE /sessions/:id`), and `ended` is then told, here or from another instance.
 *
 * Whether a token's session is still active is answered from memory: an ended session is known
 * as such at once (locally and through `endedElsewhere`), an active one is read again at most
 * every `recheckMs` (the bound when news of an end is lost), so requests cost no database read.
 */
export class SessionRegistry {
  private readonly known = new Map<string, Known>();
  private readonly loading = new Map<string, Promise<boolean>>();
  private readonly listeners: ((sessionIds: readonly string[], where: SessionEnd) => void)[] = [];
  private readonly now: () => number;
  private readonly recheckMs: number;
  private readonly capacity: number;

  constructor(private readonly options: SessionRegistryOptions) {
    this.now = options.now ?? Date.now;
    this.recheckMs = options.recheckMs ?? 60_000;
    this.capacity = options.capacity ?? 10_000;
  }

  /** Starts a session for a login; the answer's refresh token is never stored. */
  async start(userId: string, params: Params = {}): Promise<{ sessionId: string; refreshToken: string }> {
    const now = new Date(this.now());
    const userAgent = params.headers?.['user-agent'];
    const address = typeof params.ip === 'string' && params.ip !== '' ? params.ip : undefined;
    const draft: Omit<SessionRecord, '_id' | 'refreshTokenHash'> = {
      userId,
      rotatedTokenHashes: [],
      createdAt: now,
      lastUsedAt: now,
      expiresAt: new Date(now.getTime() + this.options.refreshTokenTtlMs),
      ...(typeof userAgent === 'string' ? { userAgent: userAgent.slice(0, 256) } : {}),
      ...(address ? { address } : {}),
    };
    // The id is the store's (a UUID): the first refresh token is written once it is known.
    const created = (await this.options.sessions().create!(
      copyWith(draft, { refreshTokenHash: '' }),
      internalCallParams(params),
    )) as SessionRecord;
    const refreshToken = newOpaqueToken(created._id);
    await this.options.sessions().patch!(
      created._id,
      { refreshTokenHash: await hashOpaqueToken(refreshToken) },
      internalCallParams(params),
    );
    this.remember(created._id, { active: true, userId, until: this.now() + this.recheckMs });
    return { sessionId: created._id, refreshToken };
  }

  /**
   * Exchanges a refresh token for the next one (rotation) and extends the session. A token used
   * before ends the session (401, `data.reason: 'revoked'`); an unknown or malformed one is a 401.
   */
  async refresh(refreshToken: unknown): Promise<{ sessionId: string; userId: string; refreshToken: string }> {
    const sessionId = idOfOpaqueToken(refreshToken);
    const session = sessionId === undefined ? undefined : await this.read(sessionId);
    if (!session) throw new NotAuthenticated('Invalid refresh token');
    if (session.expiresAt.getTime() <= this.now()) {
      await this.end(session._id);
      throw new NotAuthenticated('The session has expired: log in again', { reason: 'expired' });
    }
    const hash = await hashOpaqueToken(refreshToken as string);
    if (session.rotatedTokenHashes.includes(hash)) return this.endForReuse(session._id);
    if (hash !== session.refreshTokenHash) throw new NotAuthenticated('Invalid refresh token');
    const next = newOpaqueToken(session._id);
    const now = this.now();
    const changes = {
      refreshTokenHash: await hashOpaqueToken(next),
      rotatedTokenHashes: [...session.rotatedTokenHashes, hash].slice(-MAX_ROTATED_HASHES),
      lastUsedAt: new Date(now),
      expiresAt: new Date(now + this.options.refreshTokenTtlMs),
    };
    try {
      // Only while the token is still the current one: of two uses of one token, one rotates it.
      await this.options.sessions().patch!(session._id, changes, { query: { refreshTokenHash: hash } });
    } catch (error) {
      if (error instanceof NotFound) return this.endForReuse(session._id);
      throw error;
    }
    return { sessionId: session._id, userId: session.userId, refreshToken: next };
  }

  /** Ends one session (nothing happens for one that has ended already). */
  async end(sessionId: string): Promise<void> {
    try {
      await this.options.sessions().remove!(sessionId, {});
    } catch (error) {
      if (!(error instanceof NotFound)) throw error;
    }
  }

  /** Ends every session of a user, but `except` (the one asking, on a password change). */
  async endAllOf(userId: string, except?: string): Promise<void> {
    const query: Record<string, unknown> = { userId };
    if (except !== undefined) query._id = { $ne: except };
    await this.options.sessions().remove!(null, { query });
  }

  /**
   * Whether the session `sessionId` of `userId` is active: from memory when known (a boolean),
   * else read once however many calls ask at the same time (a promise).
   */
  isActive(sessionId: string, userId: string): boolean | Promise<boolean> {
    const known = this.known.get(sessionId);
    if (known && (!known.active || this.now() < known.until)) return known.active && known.userId === userId;
    let loading = this.loading.get(sessionId);
    if (!loading) {
      loading = this.load(sessionId).finally(() => this.loading.delete(sessionId));
      this.loading.set(sessionId, loading);
    }
    return loading.then(
      (active) => active && (this.known.get(sessionId) as { userId?: string } | undefined)?.userId === userId,
    );
  }

  /** True for a session known to have ended (here or, with a bus, on another instance); nothing is read. */
  hasEnded(sessionId: string): boolean {
    return this.known.get(sessionId)?.active === false;
  }

  /** Told of every removal of session records on this instance (the sessions service's after hook). */
  ended(sessionIds: readonly string[], where: SessionEnd = 'here'): void {
    if (sessionIds.length === 0) return;
    for (const id of sessionIds) this.remember(id, { active: false });
    for (const listener of this.listeners) listener(sessionIds, where);
  }

  /** Sessions another instance ended. */
  endedElsewhere(sessionIds: readonly string[]): void {
    this.ended(sessionIds, 'elsewhere');
  }

  /** `listener` hears of every session that ends, here or elsewhere. */
  onEnded(listener: (sessionIds: readonly string[], where: SessionEnd) => void): void {
    this.listeners.push(listener);
  }

  private async endForReuse(sessionId: string): Promise<never> {
    await this.end(sessionId);
    throw new NotAuthenticated('This refresh token was used already: the session has been ended', REVOKED);
  }

  private async load(sessionId: string): Promise<boolean> {
    const session = await this.read(sessionId);
    const active = session !== undefined && session.expiresAt.getTime() > this.now();
    // An end heard while reading wins over what was read.
    if (this.known.get(sessionId)?.active === false) return false;
    this.remember(
      sessionId,
      active
        ? {
            active,
            userId: session!.userId,
            until: Math.min(this.now() + this.recheckMs, session!.expiresAt.getTime()),
          }
        : { active: false },
    );
    return active;
  }

  private async read(sessionId: string): Promise<SessionRecord | undefined> {
    try {
      const session = (await this.options.sessions().get!(sessionId, {})) as SessionRecord;
      return copyWith(session, { expiresAt: new Date(session.expiresAt) });
    } catch (error) {
      if (error instanceof NotFound) return undefined;
      throw error;
    }
  }

  private remember(sessionId: string, state: Known): void {
    this.known.delete(sessionId);
    if (this.known.size >= this.capacity) this.known.delete(this.known.keys().next().value as string);
    this.known.set(sessionId, state);
  }
}

/** The sessions service's after hook: every removal of session records (one or many) ends those sessions. */
export function announceEndedSessions(registry: SessionRegistry) {
  return (context: HookContext): void => {
    const removed = ([] as unknown[]).concat(context.result ?? []);
    registry.ended(removed.map((session) => String((session as SessionRecord)._id)));
  };
}

/** The app setting under which the composition keeps the registry (the transports' revocation wiring reads it). */
export const SESSION_REGISTRY = 'sessionRegistry';
