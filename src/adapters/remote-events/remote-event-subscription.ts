import { createHash } from 'node:crypto';
import { io, type Socket } from 'socket.io-client';
import type { LoggerPort } from '../../ports/logger.port';

/** The pause before connecting again after the storing server closed the socket or refused it. */
const RECONNECT_AFTER_CLOSE_MS = 1_000;

/** The events of one service bound to another server, heard from that server. */
export interface RemoteEventSettings {
  /** The storing server's URL (`<NAME>_REMOTE_URL`). */
  readonly url: string;
  /** This server's service credential there (`<NAME>_REMOTE_TOKEN`). */
  readonly credential: string;
  readonly path: string;
  /** The event names to hear: the standard ones and the service's own. */
  readonly events: readonly string[];
  /**
   * Called with each event as the storing server published it (the record less its hidden
   * fields) and, when that server gives offsets (it lets clients resume), an identity of the
   * event that every instance hearing it computes alike.
   */
  onEvent(event: string, data: unknown, identity?: string): void;
}

export interface RemoteEventSubscription {
  close(): void;
}

/**
 * A socket to the storing server that subscribes, with this server's service credential, to
 * every event of one service. It reconnects by itself (with the credential again) after the
 * server or the network went away; the log says once when the stream stops and once when it is
 * back. Events published while it was away are not heard.
 */
/**
 * The storing server's offset with the event's content: offsets alone repeat after that server
 * restarts (when it keeps them in memory), the same content at the same offset does not.
 */
function identityOf(settings: RemoteEventSettings, event: string, offset: string, data: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify([settings.url, settings.path, event, offset, data]))
    .digest('base64url');
}

export function subscribeToRemoteEvents(settings: RemoteEventSettings, logger: LoggerPort): RemoteEventSubscription {
  const socket: Socket = io(settings.url, {
    transports: ['websocket'],
    auth: { serviceCredential: settings.credential, services: [settings.path] },
    reconnectionDelayMax: 5_000,
  });
  let down = false;
  let closed = false;
  socket.on('connect', () => {
    if (!down) return;
    down = false;
    logger.info(
      { service: settings.path, remote: settings.url },
      `events of remote service '${settings.path}' are heard again`,
    );
  });
  const stopped = (reason: string) => {
    if (down || closed) return;
    down = true;
    logger.warn(
      { service: settings.path, remote: settings.url, reason },
      `events of remote service '${settings.path}' are not heard (${reason})`,
    );
  };
  // socket.io reconnects by itself after network failures, but not when the server closed the
  // socket (a restart: "io server disconnect") or refused the handshake: then it is asked to here.
  let retry: ReturnType<typeof setTimeout> | undefined;
  const reconnectLater = () => {
    if (closed || socket.active || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      if (!closed) socket.connect();
    }, RECONNECT_AFTER_CLOSE_MS);
    retry.unref?.();
  };
  socket.on('disconnect', (reason) => {
    stopped(reason);
    reconnectLater();
  });
  socket.on('connect_error', (error) => {
    stopped(error.message);
    reconnectLater();
  });
  for (const event of settings.events) {
    socket.on(`${settings.path} ${event}`, (data: unknown, offset?: unknown) =>
      settings.onEvent(event, data, typeof offset === 'string' ? identityOf(settings, event, offset, data) : undefined),
    );
  }
  return {
    close() {
      closed = true;
      clearTimeout(retry);
      socket.close();
    },
  };
}
