import type { IncomingMessage } from 'node:http';
import type { Express } from 'express';

/**
 * `req.ip` exactly as Express computes it for `server` (its `trust proxy` setting, inherited when
 * mounted), for requests the adapter answers before Express has turned them into its own
 * requests: Express's getter runs on a view of the raw request. Without a trusted proxy the
 * address is the socket's, as Express would give.
 */
export function expressClientAddress(server: Express): (req: IncomingMessage) => string | undefined {
  return (req) => {
    if (!server.get('trust proxy')) return req.socket.remoteAddress;
    const view: { ip?: string } = Object.create(server.request, { headers: { value: req.headers }, socket: { value: req.socket } });
    return view.ip;
  };
}
