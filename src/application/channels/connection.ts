/**
 * One real-time client as the application sees it: a plain object the transport creates per
 * socket. `user` and `authentication` are set on login and removed on logout or token expiry.
 */
export interface RealTimeConnection {
  /** The transport's name ('socketio'); calls from it carry it as `params.provider`. */
  readonly provider: string;
  /** The handshake headers (fixed for the connection's lifetime). */
  readonly headers?: Record<string, string | string[] | undefined>;
  /** The client's network address (login rate limits). */
  readonly ip?: string;
  user?: Record<string, any>;
  /** The login: its access token, and the session it belongs to (which may end it before the token expires). */
  authentication?: { strategy: string; accessToken?: string; sessionId?: string };
  [key: string]: any;
}

/** How a transport delivers one event to some of its own connections (encoding it once for all). */
export interface ConnectionTransport {
  /** `position`: the event's place in the shared event log, when there is one (what clients resume from). */
  send(eventName: string, data: unknown, connections: readonly RealTimeConnection[], position?: string): void;
}

const TRANSPORT: unique symbol = Symbol('realTimeTransport');

/** Marks `connection` as delivered through `transport` (a hidden, non-enumerable field). */
export function bindTransport(connection: RealTimeConnection, transport: ConnectionTransport): void {
  Object.defineProperty(connection, TRANSPORT, { value: transport, configurable: true, enumerable: false });
}

export function transportOf(connection: RealTimeConnection): ConnectionTransport | undefined {
  return (connection as unknown as Record<symbol, ConnectionTransport | undefined>)[TRANSPORT];
}
