import type { RealTimeConnection } from './connection';

/** setTimeout's largest delay; a later expiry is re-armed in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export type LogoutReason = 'logout' | 'expired' | 'revoked';

export interface AuthenticationEvents {
  /** After the connection took the new identity (channels already left). */
  login(connection: RealTimeConnection, result: Record<string, any>): void;
  /**
   * After the identity was removed (channels already left): by a logout, the token's expiry, or the end of its session.
   */
  logout(connection: RealTimeConnection, result: Record<string, any> | null, reason: LogoutReason): void;
  /** Takes the connection out of every channel. */
  leaveAll(connection: RealTimeConnection): void;
}

/**
 * The identity of each real-time connection: set by a login over it, removed by a logout over it,
 * when its token expires and when its session ends. Unlike Feathers, expiry does not drop the socket: it becomes
 * anonymous (and its channels are left), so the client may sign in again on the same connection.
 */
export class AuthenticationTracking {
  private readonly timers = new Map<RealTimeConnection, ReturnType<typeof setTimeout>>();

  constructor(
    private readonly events: AuthenticationEvents,
    private readonly now: () => number = Date.now,
  ) {}

  /** Open expiry timers (0 when every connection is anonymous or gone). */
  get pendingTimers(): number {
    return this.timers.size;
  }

  loggedIn(connection: RealTimeConnection, result: Record<string, any>): void {
    this.clearTimer(connection);
    // A new login (another user, or the same one again) starts from no channels: what the login
    // handlers grant is exactly what the connection has.
    this.events.leaveAll(connection);
    const sessionId = result.authentication?.payload?.sid;
    connection.authentication = {
      strategy: 'jwt',
      accessToken: result.accessToken,
      ...(typeof sessionId === 'string' ? { sessionId } : {}),
    };
    connection.user = result.user;
    const exp = result.authentication?.payload?.exp;
    if (typeof exp === 'number') this.arm(connection, exp * 1000);
    this.events.login(connection, result);
  }

  loggedOut(connection: RealTimeConnection, result: Record<string, any> | null, reason: LogoutReason = 'logout'): void {
    this.clearTimer(connection);
    delete connection.authentication;
    delete connection.user;
    this.events.leaveAll(connection);
    this.events.logout(connection, result, reason);
  }

  /** The connection is gone: no timer may outlive it. */
  forget(connection: RealTimeConnection): void {
    this.clearTimer(connection);
  }

  clearAll(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  private arm(connection: RealTimeConnection, expiresAt: number): void {
    const delay = Math.max(0, expiresAt - this.now());
    const timer = setTimeout(
      () => {
        this.timers.delete(connection);
        if (delay > MAX_TIMER_MS) return this.arm(connection, expiresAt);
        if (connection.authentication) this.loggedOut(connection, null, 'expired');
      },
      Math.min(delay, MAX_TIMER_MS),
    );
    (timer as { unref?: () => void }).unref?.();
    this.timers.set(connection, timer);
  }

  private clearTimer(connection: RealTimeConnection): void {
    const timer = this.timers.get(connection);
    if (timer !== undefined) clearTimeout(timer);
    this.timers.delete(connection);
  }
}
