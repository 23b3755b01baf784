import type { Params } from '../../ports/service-params';
import { addressGroup } from './address-group';

/**
 * The caller's network address for rate limiting: `params.ip` (which the HTTP and socket
 * adapters set from the connection, honouring `TRUST_PROXY`), an IPv6 address grouped by its
 * /64 (see address-group.ts). Headers such as X-Forwarded-For are not read here: any client
 * can forge them.
 */
export function clientAddressOf(params: Params): string | undefined {
  const ip = params.ip;
  return typeof ip === 'string' && ip !== '' ? addressGroup(ip) : undefined;
}
