import type { Params } from '../../ports/service-params';

/**
 * The caller's network address for rate limiting: `params.ip`, as the HTTP adapter sets it
 * from `req.ip` (which honours Express' `trust proxy`). Headers such as X-Forwarded-For are
 * not read here: any client can forge them.
 */
export function clientAddressOf(params: Params): string | undefined {
  const ip = params.ip;
  return typeof ip === 'string' && ip !== '' ? ip : undefined;
}
