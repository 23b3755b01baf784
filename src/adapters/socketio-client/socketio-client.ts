import type { Application } from '../../application/app/application';
import { CLIENT_SOCKET_SETTING } from '../../application/authentication/authentication-client';
import type { SocketLike } from './socket-like';
import { SocketService } from './socket-service';

export interface SocketClientOptions {
  /** Milliseconds before a call without an answer fails with `Timeout`. Default 30 000; 0 waits forever. */
  timeout?: number;
}

/** What `socketio(socket)` returns: pass it to `app.configure(...)`, or take single services with `service(name)`. */
export interface SocketClient {
  (app: Application): void;
  readonly socket: SocketLike;
  service(name: string): SocketService;
}

/**
 * The socket connection beside `rest()`: `app.configure(socketio(io(url)))`, then
 * `app.service(name)` is the remote service, with the server's events on it.
 *
 * @example
 *   const app = createApp().configure(socketio(io('https://api.example.com', { transports: ['websocket'] })));
 *   app.use('messages', app.service('messages'), { methods: ['find', 'create', 'markRead'] });
 */
export function socketio(socket: SocketLike, options: SocketClientOptions = {}): SocketClient {
  if (!socket || typeof socket.emit !== 'function')
    throw new TypeError('socketio(socket) needs a socket.io client socket');
  const service = (name: string) => new SocketService({ name, socket, timeout: options.timeout });
  const configure = (app: Application): void => {
    if (app.rest !== undefined || app.defaultService !== undefined) {
      throw new Error(
        'A client transport is already configured on this app; configure one connection (rest or socketio) per app.',
      );
    }
    app.set(CLIENT_SOCKET_SETTING, socket);
    app.defaultService = service;
  };
  return Object.assign(configure, { socket, service });
}
