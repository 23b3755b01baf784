import type { Application } from '../../application/app/application';
import { resolveBaseUrl } from './build-url';
import { AxiosClient, type AxiosLike } from './connections/axios.connection';
import { FetchClient, type FetchFunction } from './connections/fetch.connection';
import { SuperagentClient, type SuperagentLike } from './connections/superagent.connection';
import type { RestClientOptions, RestService, RestServiceClass } from './rest-service';

/**
 * What a library-selecting method returns: pass it to `app.configure(...)` (then `app.rest` is the
 * connection and `app.service(name)` is remote), or take single services with `service(name)`.
 */
export interface ConfigurableClient<S extends RestService = RestService> {
  (app: Application): void;
  readonly Service: RestServiceClass<S>;
  readonly connection: unknown;
  service(name: string): S;
}

type OptionsOrClass<S extends RestService> = RestClientOptions | RestServiceClass<S>;

/** The client object of `rest([baseUrl])`. */
export interface RestClientFactory {
  readonly base: string;
  /** In a browser pass `window.fetch.bind(window)` (the unbound global `fetch` is bound here too). */
  fetch<S extends RestService = FetchClient>(
    fetch: FetchFunction | typeof globalThis.fetch,
    options?: OptionsOrClass<S>,
    ClientClass?: RestServiceClass<S>,
  ): ConfigurableClient<S>;
  axios<S extends RestService = AxiosClient>(
    axios: AxiosLike,
    options?: OptionsOrClass<S>,
    ClientClass?: RestServiceClass<S>,
  ): ConfigurableClient<S>;
  superagent<S extends RestService = SuperagentClient>(
    superagent: SuperagentLike,
    options?: OptionsOrClass<S>,
    ClientClass?: RestServiceClass<S>,
  ): ConfigurableClient<S>;
}

/**
 * `rest([baseUrl])`: service paths are relative to `baseUrl` (a service at `api/v1/messages` is
 * `messages` under `<origin>/api/v1`). Without a base URL, a browser page's own origin is used.
 *
 * @example
 *   app.configure(
 *     rest('https://api.example.com').fetch(window.fetch.bind(window), {
 *       headers: { Authorization: 'Bearer <token>' },
 *     }),
 *   );
 */
export function rest(baseUrl?: string): RestClientFactory {
  const base = resolveBaseUrl(baseUrl);
  return {
    base,
    fetch: (fetch, options, ClientClass) =>
      configurableClient('fetch', bindGlobalFetch(fetch), fetch, base, options, ClientClass, FetchClient),
    axios: (axios, options, ClientClass) =>
      configurableClient('axios', axios, axios, base, options, ClientClass, AxiosClient),
    superagent: (superagent, options, ClientClass) =>
      configurableClient('superagent', superagent, superagent, base, options, ClientClass, SuperagentClient),
  };
}

function configurableClient<S extends RestService>(
  library: string,
  connection: unknown,
  original: unknown,
  base: string,
  optionsOrClass: OptionsOrClass<S> | undefined,
  ClientClass: RestServiceClass<S> | undefined,
  DefaultClass: RestServiceClass<any>,
): ConfigurableClient<S> {
  if (!connection) throw new TypeError(`${library} has to be provided to rest().${library}(...)`);
  // The seed allows the class as second argument: `rest().fetch(fetch, MyClient)`.
  const Service = (
    typeof optionsOrClass === 'function' ? optionsOrClass : (ClientClass ?? DefaultClass)
  ) as RestServiceClass<S>;
  const options = typeof optionsOrClass === 'function' ? {} : { ...optionsOrClass };
  const service = (name: string): S => new Service({ base, name, connection, options });
  const configure = (app: Application): void => {
    if (app.rest !== undefined || app.defaultService !== undefined) {
      throw new Error(
        'A client transport is already configured on this app (app.rest is set). Configure one REST client per app; ' +
          'register services of other servers with app.use(name, rest(url).<library>(...).service(name)).',
      );
    }
    app.rest = original;
    app.defaultService = service;
  };
  return Object.assign(configure, { Service, connection: original, service });
}

/** A browser's `fetch` throws "Illegal invocation" unless called on the window; bind the global one. */
function bindGlobalFetch(fetch: unknown): FetchFunction {
  if (typeof fetch === 'function' && fetch === globalThis.fetch) return fetch.bind(globalThis) as FetchFunction;
  return fetch as FetchFunction;
}
