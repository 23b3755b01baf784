import type { ConnectionTransport, RealTimeConnection } from '../../application/channels/connection';
import type { RealTimeHub } from '../../application/channels/real-time-hub';
import type { EventLogPort } from '../../ports/event-log.port';
import { isAfter } from '../../ports/event-log.port';
import type { LoggerPort } from '../../ports/logger.port';
import type { ResumeSessionsPort } from '../../ports/resume-sessions.port';
import type { DroppedSession, SessionKeeper } from './resumable-adapter';
import type { EventPacket } from './resume-window';

/** The shared log of every instance's events, and where dropped connections wait for their clients. */
export interface SharedResume {
  readonly log: EventLogPort;
  readonly sessions: ResumeSessionsPort;
}

/** What a dropped connection leaves in the shared store: who it was and where it stood, never what it was sent. */
interface KeptState {
  readonly sid: string;
  /** Its credentials, to sign it in again as it was (the store seals them). */
  readonly accessToken?: string;
  readonly serviceCredential?: string;
  readonly subscribedTo?: string[];
  /** The last position it was sent, and where its instance stood in the log when it dropped. */
  readonly lastSent: string;
  readonly position: string;
  readonly instanceId: string;
  readonly deliveredAtOnce: number;
}

/** What the transport does for the shared keeper: sign a connection in again, from what it kept. */
export interface Reinstatement {
  login(accessToken: string): Promise<Record<string, any>>;
  subscription(credential: string, services: unknown): Promise<string[]>;
}

export interface SharedKeeperSettings {
  readonly shared: SharedResume;
  readonly hub: RealTimeHub;
  readonly windowMs: number;
  readonly provider: string;
  readonly reinstate: Reinstatement;
  readonly logger: LoggerPort;
  /** The connection's socket state, by socket id, as the transport keeps it. */
  readonly connectionOf: (socketId: string) => RealTimeConnection | undefined;
  readonly credentialsOf: (socketId: string) => { serviceCredential?: string; subscribedTo?: string[] } | undefined;
}

/**
 * A connection brought back, waiting for socket.io to hand over its new socket: what it is sent meanwhile waits with
 * it.
 */
interface Reinstated {
  readonly connection: RealTimeConnection;
  readonly waiting: EventPacket[];
  readonly expiry: ReturnType<typeof setTimeout>;
}

/** How long a brought-back connection waits for its socket (the handshake's middlewares) before it is dropped. */
const HANDOVER_MS = 10_000;

const LAST_SENT: unique symbol = Symbol('lastSentPosition');

/** Notes the position of the event just sent to `connection` (what it resumes after if it names it). */
export function noteSent(connection: RealTimeConnection, position: string): void {
  (connection as unknown as Record<symbol, string>)[LAST_SENT] = position;
}

function lastSentTo(connection: RealTimeConnection): string | undefined {
  return (connection as unknown as Record<symbol, string | undefined>)[LAST_SENT];
}

/**
 * Connection state recovery across instances and restarts: a dropped connection's identity and
 * standing go to the shared store (its instance forgets it at once); a client that comes back to
 * any instance is signed in again as it was and given, in order, what the shared log holds for it
 * since its last offset, through this instance's publishers and policies. When the log no longer
 * holds all of it, or the credentials no longer hold, it is told it did not recover.
 */
export class SharedSessionKeeper implements SessionKeeper {
  private readonly handovers = new Map<string, Reinstated>();
  /** States being written: closing waits for them (a shutting-down instance's clients resume elsewhere). */
  private readonly keeping = new Set<Promise<void>>();

  constructor(private readonly settings: SharedKeeperSettings) {}

  dropped(session: DroppedSession): void {
    const connection = this.settings.connectionOf(session.sid);
    const standing = this.settings.hub.logStanding();
    if (!connection || !standing) return;
    const credentials = this.settings.credentialsOf(session.sid);
    const state: KeptState = {
      sid: session.sid,
      ...(connection.authentication?.accessToken ? { accessToken: connection.authentication.accessToken } : {}),
      ...(credentials?.serviceCredential
        ? { serviceCredential: credentials.serviceCredential, subscribedTo: credentials.subscribedTo }
        : {}),
      lastSent: lastSentTo(connection) ?? standing.position,
      position: standing.position,
      instanceId: this.settings.hub.instanceId,
      deliveredAtOnce: standing.deliveredAtOnce,
    };
    const kept = this.settings.shared.sessions
      .keep(session.pid, { ...state }, this.settings.windowMs)
      .catch((error: Error) => {
        this.settings.logger.warn(
          { reason: error.message },
          'a dropped real-time connection could not be kept for resuming: its client will start afresh',
        );
      });
    this.keeping.add(kept);
    void kept.then(() => this.keeping.delete(kept));
  }

  async resumed(pid: string, offset: string): Promise<(DroppedSession & { missedPackets: EventPacket[] }) | undefined> {
    const state = (await this.settings.shared.sessions.take(pid)) as KeptState | undefined;
    if (!state || typeof state.sid !== 'string') return undefined;
    const { hub, reinstate } = this.settings;
    let login: Record<string, any> | undefined;
    let subscribedTo: string[] | undefined;
    try {
      if (state.accessToken) login = await reinstate.login(state.accessToken);
      if (state.serviceCredential)
        subscribedTo = await reinstate.subscription(state.serviceCredential, state.subscribedTo);
    } catch {
      // Signed out, expired or revoked meanwhile: it starts afresh.
      return undefined;
    }
    // Connected before the log is read: what is delivered from now on waits with it, in order.
    const connection: RealTimeConnection = { provider: this.settings.provider };
    const waiting: EventPacket[] = [];
    const holding: ConnectionTransport = {
      send: (eventName, data, _connections, position) =>
        void waiting.push(position === undefined ? [eventName, data] : [eventName, data, position]),
    };
    hub.connect(connection, holding);
    if (login) hub.loggedIn(connection, login);
    if (subscribedTo) hub.subscribe(connection, subscribedTo);
    const through = hub.logStanding()?.position ?? state.position;
    // A client that had everything it was sent missed nothing before its instance's standing when it dropped.
    const after = offset === state.lastSent && isAfter(state.position, offset) ? state.position : offset;
    const missed = await this.settings.shared.log.since(after, through).catch(() => undefined);
    if (!missed) {
      hub.disconnect(connection);
      return undefined;
    }
    const live = waiting.splice(0);
    hub.replay(connection, missed, { instanceId: state.instanceId, deliveredAtOnce: state.deliveredAtOnce });
    const missedPackets = [...waiting.splice(0), ...live];
    const expiry = setTimeout(() => this.abandon(state.sid), HANDOVER_MS);
    expiry.unref();
    this.handovers.set(state.sid, { connection, waiting, expiry });
    return { sid: state.sid, pid, rooms: [], data: {}, missedPackets };
  }

  /**
   * socket.io has connected the client again (its missed events sent): the connection is its
   * from now on, and what waited meanwhile goes to it.
   */
  takeOver(socketId: string): { connection: RealTimeConnection; waiting: EventPacket[] } | undefined {
    const handover = this.handovers.get(socketId);
    if (!handover) return undefined;
    this.handovers.delete(socketId);
    clearTimeout(handover.expiry);
    return { connection: handover.connection, waiting: handover.waiting };
  }

  /** Every connection still waiting for its socket goes; the states being written are written. */
  async close(): Promise<void> {
    for (const socketId of [...this.handovers.keys()]) this.abandon(socketId);
    await Promise.all([...this.keeping]);
  }

  private abandon(socketId: string): void {
    const handover = this.handovers.get(socketId);
    if (!handover) return;
    this.handovers.delete(socketId);
    clearTimeout(handover.expiry);
    this.settings.hub.disconnect(handover.connection);
  }
}
