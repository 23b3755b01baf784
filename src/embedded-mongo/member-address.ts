import { isIPv6 } from 'node:net';
import type { Socket } from 'node:net';

/** Names the replica-set member a connection reached: what its client must find in `hosts`. */
export type MemberAddress = (socket: Socket) => string;

const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '']);

/**
 * A TCP listener's member name: the host it was bound to with the port (an accepted socket's local
 * port is the listener's); bound to every interface, the interface the connection arrived on (a
 * client connecting by IP then finds itself). Lower case, as the driver compares names.
 */
export function tcpMemberAddress(host: string): MemberAddress {
  if (!WILDCARD_HOSTS.has(host)) return (socket) => hostPort(host, socket.localPort ?? 0);
  return (socket) => hostPort((socket.localAddress ?? '127.0.0.1').replace(/^::ffff:/, ''), socket.localPort ?? 0);
}

/** A Unix socket's member name is its path, which is also how the driver names the server. */
export function unixMemberAddress(socketPath: string): MemberAddress {
  return () => socketPath;
}

function hostPort(host: string, port: number): string {
  return `${isIPv6(host) ? `[${host}]` : host}:${port}`.toLowerCase();
}
