import type { IncomingMessage } from 'node:http';
import proxyAddr from 'proxy-addr';

/** Which proxies to trust for `X-Forwarded-For`, with the meanings of Express's `trust proxy` setting. */
export type TrustProxy = boolean | number | string | string[];

type TrustFunction = (address: string, hop: number) => boolean;

/**
 * The client address of a request, as Express documents `req.ip` for the same `trust proxy`
 * value: `true` the left-most `X-Forwarded-For` entry, a number that many hops from this server,
 * addresses, subnets or proxy-addr's presets (`'loopback'`, ...) those proxies only. Unset, a
 * request that already went through an Express app (the adapter mounted with `app.use`) keeps
 * that app's `req.ip`; otherwise the socket's address.
 */
export function clientAddressSource(trustProxy: TrustProxy | undefined): (req: IncomingMessage) => string | undefined {
  if (trustProxy === undefined)
    return (req) => (req as IncomingMessage & { ip?: string }).ip ?? req.socket.remoteAddress;
  const trust = compileTrust(trustProxy);
  if (!trust) return (req) => req.socket.remoteAddress;
  return (req) => proxyAddr(req, trust);
}

/**
 * Whether a request came over HTTPS, as Express documents `req.secure` for the same `trust proxy`
 * value: a TLS socket, or `X-Forwarded-Proto: https` sent by a trusted proxy.
 */
export function secureRequestSource(trustProxy: TrustProxy | undefined): (req: IncomingMessage) => boolean {
  const trust = trustProxy === undefined ? undefined : compileTrust(trustProxy);
  return (req) => {
    if ((req.socket as { encrypted?: boolean }).encrypted) return true;
    if (!trust || !trust(req.socket.remoteAddress ?? '', 0)) return false;
    const forwarded = req.headers['x-forwarded-proto'];
    const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0].trim().toLowerCase();
    return first === 'https';
  };
}

function compileTrust(value: TrustProxy): TrustFunction | undefined {
  if (value === false) return undefined;
  if (value === true) return () => true;
  if (typeof value === 'number') return (_address, hop) => hop < value;
  return proxyAddr.compile(typeof value === 'string' ? value.split(',').map((entry) => entry.trim()) : value);
}
