import { argumentNames } from '../application/hooks/hook-context';
import type { Params } from '../ports/service-params';

type RemoteService = Record<string, any> & { methods(...names: string[]): unknown };

/**
 * What a call forwarded to another server carries: the query and route values, nothing of the
 * incoming request. Its headers, user and credentials stay here; the binding authenticates
 * with its own token (`<SERVICE>_REMOTE_TOKEN`).
 */
export function remoteParams(params: Params | undefined): Params {
  const forwarded: Params = {};
  if (params?.query !== undefined) forwarded.query = params.query;
  if (params?.route !== undefined) forwarded.route = params.route;
  return forwarded;
}

/**
 * A REST client service as the local store of a service bound to another server: every listed
 * method (custom ones included) is called remotely with `remoteParams`.
 */
export function forwardToRemote(remote: RemoteService, methods: readonly string[]): Record<string, (...args: unknown[]) => Promise<unknown>> {
  remote.methods(...methods.filter((name) => typeof remote[name] !== 'function'));
  const forwarded: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
  for (const method of methods) {
    const paramsAt = argumentNames(method).indexOf('params');
    forwarded[method] = (...args: unknown[]) => {
      const call = [...args];
      call[paramsAt] = remoteParams(call[paramsAt] as Params | undefined);
      return remote[method](...call);
    };
  }
  return forwarded;
}
