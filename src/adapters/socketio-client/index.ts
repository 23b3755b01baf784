/**
 * The socket client transport (browser-safe). In a browser:
 *   app.configure(socketio(io({ transports: ['websocket'] })));
 */
export { socketio, type SocketClient, type SocketClientOptions } from './socketio-client';
export { SocketService, type SocketServiceSettings } from './socket-service';
export type { SocketLike } from './socket-like';
