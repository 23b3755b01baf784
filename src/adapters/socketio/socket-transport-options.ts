import type { LoggerPort } from '../../ports/logger.port';

export interface SocketTransportOptions {
  logger: LoggerPort;
  /** Generic messages for unexpected errors. */
  production?: boolean;
  /** Largest inbound message; a bigger one closes that connection (WebSocket close 1009). Default 1 MB. */
  maxMessageBytes?: number;
  /** Bytes a connection may leave unread before it is disconnected as a slow consumer. Default 1 MiB. */
  maxBufferedBytes?: number;
  /** How long a connection may stay over `maxBufferedBytes` (a burst drains within it) before it is cut off. Default 2 s. */
  slowConsumerGraceMs?: number;
  /** Origins allowed to connect from browsers on other origins (CORS for long-polling). Default: none. */
  corsOrigins?: string[];
  /** The endpoint path. Default '/socket.io'. */
  path?: string;
}

export const SOCKET_DEFAULTS = Object.freeze({ maxMessageBytes: 1_000_000, maxBufferedBytes: 1024 * 1024, slowConsumerGraceMs: 2_000, path: '/socket.io' });
