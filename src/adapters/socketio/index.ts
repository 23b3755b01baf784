export { attachSocketTransport, type SocketTransport } from './socket-transport';
export type { SocketTransportOptions } from './socket-transport-options';
export { SOCKET_PROVIDER } from './socket-call';
