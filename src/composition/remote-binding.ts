import { rest } from '../adapters/rest-client';
import { userIdOf } from '../application/authentication/owner.hooks';
import { ON_BEHALF_OF_HEADER } from '../application/authentication/authenticate.hook';
import { argumentNames } from '../application/hooks/hook-context';
import type { ServiceDefinition } from '../application/services/service-definition';
import { BadGateway, NotAuthenticated, ServiceError, Timeout, Unavailable } from '../domain/errors';
import type { LoggerPort } from '../ports/logger.port';
import type { Params } from '../ports/service-params';
import type { ServiceMethods } from '../ports/service.port';
import type { AppConfig } from './app-config';

type RemoteService = Record<string, any> & { methods(...names: string[]): unknown };

/** A service bound to another server: the store its calls go to, and its health. */
export interface RemoteBinding {
  readonly path: string;
  /** Whether `/ready` waits for this remote. */
  readonly readiness: boolean;
  readonly store: ServiceMethods;
  /** Resolves when the remote answers with this server's credential accepted; rejects with a 503 naming the service. */
  check(): Promise<void>;
}

/**
 * What a call forwarded to another server carries: the query, the route values and the id of
 * the user it is made for (`X-On-Behalf-Of`, which the other server accepts only with this
 * server's service credential). The incoming request's own headers and token stay here.
 */
export function remoteParams(params: Params | undefined): Params {
  const forwarded: Params = {};
  if (params?.query !== undefined) forwarded.query = params.query;
  if (params?.route !== undefined) forwarded.route = params.route;
  if (params?.user) forwarded.headers = { [ON_BEHALF_OF_HEADER]: userIdOf(params.user) };
  return forwarded;
}

/**
 * Binds a definition to another server's REST API with the service credential of
 * `<NAME>_REMOTE_TOKEN`. The remote's answers about a request (400, 404, 409, ...) pass through
 * as they are; an unreachable remote, one that refuses the credential or fails itself becomes a
 * 503 or 502 that names the service only (never addresses, ports or network error codes), with
 * one warning in the log per outage and one line when it is back.
 */
export function bindRemote(definition: ServiceDefinition, remote: AppConfig['remotes'][string], logger: LoggerPort): RemoteBinding {
  const headers: Record<string, string> = remote.token ? { Authorization: `Bearer ${remote.token}` } : {};
  const client = rest(remote.url).fetch(fetch, { headers }).service(definition.path) as RemoteService;
  client.methods(...definition.methods.filter((name) => typeof client[name] !== 'function'));
  let down = false;
  const failure = (error: unknown): unknown => {
    const code = error instanceof ServiceError ? error.code : 500;
    const unreachable = error instanceof Unavailable || error instanceof Timeout || !(error instanceof ServiceError);
    const refused = error instanceof NotAuthenticated;
    if (!unreachable && !refused && code < 500) return error;
    if (!down) {
      down = true;
      const reason = unreachable ? 'is unreachable' : refused ? "refuses this server's credential (<NAME>_REMOTE_TOKEN)" : `failed with ${code}`;
      logger.warn({ service: definition.path, remote: remote.url, err: { message: (error as Error)?.message } }, `remote service '${definition.path}' ${reason}`);
    }
    return unreachable || refused || code === 503
      ? new Unavailable(`The '${definition.path}' service is unavailable`)
      : new BadGateway(`The '${definition.path}' service failed`);
  };
  const succeeded = () => {
    if (!down) return;
    down = false;
    logger.info({ service: definition.path, remote: remote.url }, `remote service '${definition.path}' is reachable again`);
  };
  const store: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
  for (const method of definition.methods) {
    const paramsAt = argumentNames(method).indexOf('params');
    store[method] = async (...args: unknown[]) => {
      const call = [...args];
      call[paramsAt] = remoteParams(call[paramsAt] as Params | undefined);
      try {
        const result = await client[method](...call);
        succeeded();
        return result;
      } catch (error) {
        throw failure(error);
      }
    };
  }
  return {
    path: definition.path,
    readiness: remote.readiness,
    store: store as unknown as ServiceMethods,
    async check() {
      try {
        await client.find({ query: { $limit: 0 } });
        succeeded();
      } catch (error) {
        const mapped = failure(error);
        throw mapped instanceof ServiceError && mapped.code >= 500 ? mapped : new Unavailable(`The '${definition.path}' service is unavailable`);
      }
    },
  };
}
