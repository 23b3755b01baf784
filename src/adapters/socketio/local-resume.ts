import type { RealTimeConnection } from '../../application/channels/connection';
import { copyWith } from '../../domain/plain-record';
import type { DroppedSession, SessionKeeper } from './resumable-adapter';
import type { EventPacket, ResumeWindow } from './resume-window';

export interface LocalKeeperSettings {
  /** The connection of a socket, as the transport keeps it. */
  readonly connectionOf: (socketId: string) => RealTimeConnection | undefined;
  /** Ends a connection for good (out of its channels, its history dropped). */
  readonly end: (connection: RealTimeConnection, socketId: string) => void;
}

/**
 * Connection state recovery on one instance: a dropped connection stays in its channels for the
 * window; what it is sent meanwhile is kept for it in the window (its history) and given to it,
 * in order, if it comes back naming its last offset; else it ends when the window does.
 */
export class LocalSessionKeeper implements SessionKeeper {
  /** Connections whose socket dropped within the window, by socket.io's private session id. */
  private readonly away = new Map<
    string,
    { session: DroppedSession; connection: RealTimeConnection; expiry: ReturnType<typeof setTimeout> }
  >();
  private readonly awayConnections = new WeakSet<RealTimeConnection>();

  constructor(
    private readonly window: ResumeWindow,
    private readonly settings: LocalKeeperSettings,
  ) {}

  dropped(session: DroppedSession): void {
    const connection = this.settings.connectionOf(session.sid);
    if (!connection) return;
    const expiry = setTimeout(() => this.endAway(session.pid), this.window.options.windowMs);
    expiry.unref();
    this.away.set(session.pid, { session, connection, expiry });
    this.awayConnections.add(connection);
  }

  resumed(pid: string, offset: string): (DroppedSession & { missedPackets: EventPacket[] }) | undefined {
    const entry = this.away.get(pid);
    if (!entry) return undefined;
    // Nothing was ever sent to it (no history): it missed nothing.
    const missedPackets = this.window.hasHistory(entry.session.sid)
      ? this.window.missedSince(entry.session.sid, offset)
      : [];
    // Not all of what it missed is kept: it starts afresh, and the old connection ends now.
    if (!missedPackets) {
      this.endAway(pid);
      return undefined;
    }
    this.away.delete(pid);
    this.awayConnections.delete(entry.connection);
    clearTimeout(entry.expiry);
    return copyWith(entry.session, { missedPackets });
  }

  /** Whether the connection's socket dropped and it waits for its client (its socket's end is not its own). */
  isAway(connection: RealTimeConnection): boolean {
    return this.awayConnections.has(connection);
  }

  /** Every connection still waiting ends. */
  close(): void {
    for (const pid of [...this.away.keys()]) this.endAway(pid);
  }

  private endAway(pid: string): void {
    const entry = this.away.get(pid);
    if (!entry) return;
    this.away.delete(pid);
    this.awayConnections.delete(entry.connection);
    clearTimeout(entry.expiry);
    this.settings.end(entry.connection, entry.session.sid);
  }
}
