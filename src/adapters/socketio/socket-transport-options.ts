import type { IncomingMessage } from 'node:http';
import type { LoggerPort } from '../../ports/logger.port';
import type { ResumeWindowOptions } from './resume-window';
import type { SharedResume } from './shared-resume';
import type { MetricsPort } from '../../ports/metrics.port';
import type { TracerPort } from '../../ports/tracer.port';

export interface SocketTransportOptions {
  logger: LoggerPort;
  /** Generic messages for unexpected errors. */
  production?: boolean;
  /** Largest inbound message; a bigger one closes that connection (WebSocket close 1009). Default 1 MB. */
  maxMessageBytes?: number;
  /** Bytes a connection may leave unread before it is disconnected as a slow consumer. Default 1 MiB. */
  maxBufferedBytes?: number;
  /**
   * How long a connection may stay over `maxBufferedBytes` (a burst drains within it) before it is cut off. Default 2
   * s.
   */
  slowConsumerGraceMs?: number;
  /**
   * Calls one connection may have running at once; a call beyond it is refused with a 429 ack and never runs. Default
   * 32.
   */
  maxCallsInFlight?: number;
  /** Refused calls within `refusalWindowMs` after which a connection is disconnected as flooding. Default 256. */
  maxRefusedCalls?: number;
  /** Default 10 s. */
  refusalWindowMs?: number;
  /** Origins allowed to connect from browsers on other origins (CORS for long-polling). Default: none. */
  corsOrigins?: string[];
  /** The endpoint path. Default '/socket.io'. */
  path?: string;
  /**
   * The caller's address from the handshake request (e.g. honouring trusted proxies), as `params.ip`. Default: the
   * socket's peer.
   */
  clientAddress?: (request: IncomingMessage) => string | undefined;
  /**
   * How long and how much of the events sent is kept for clients that reconnect (socket.io's
   * connection state recovery). Default: off (`windowMs` 0).
   */
  resume?: ResumeWindowOptions;
  /**
   * With the events of every instance in a shared log (the hub attached to it): dropped
   * connections wait in the shared store and resume on any instance, after a restart too, for
   * `resume.windowMs`; `resume`'s per-connection and byte limits then do not apply.
   */
  sharedResume?: SharedResume;
  /** Traces each call (a server span). Default: none. */
  tracer?: TracerPort;
  /**
   * How often the service credential of each open event subscription (another server's) is
   * checked again: one revoked since is disconnected. Default 2 s.
   */
  subscriptionRecheckMs?: number;
  /** Counts the open connections. Default: none. */
  metrics?: MetricsPort;
}

export const SOCKET_DEFAULTS = Object.freeze({
  maxMessageBytes: 1_000_000,
  maxBufferedBytes: 1024 * 1024,
  slowConsumerGraceMs: 2_000,
  // A page that loads its data at once rarely has more than a few dozen calls open; more than
  // this many from one connection is a client that does not wait for answers.
  maxCallsInFlight: 32,
  // Eight limits' worth of refusals in 10 s: a client that retries after a 429 with any backoff
  // stays far below it; one that ignores the 429s and keeps sending reaches it within a moment.
  maxRefusedCalls: 256,
  refusalWindowMs: 10_000,
  path: '/socket.io',
  // With the revocation file read again at most once a second: a revoked credential hears nothing within about 3 s.
  subscriptionRecheckMs: 2_000,
});
