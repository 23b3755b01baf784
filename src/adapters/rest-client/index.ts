/**
 * The REST client transport (browser-safe). In a browser:
 *   app.configure(rest().fetch(window.fetch.bind(window)));
 */
export { rest, type ConfigurableClient, type RestClientFactory } from './rest-client';
export {
  RestService,
  libraryOptions,
  callTimeout,
  type RestClientOptions,
  type RestRequest,
  type RestServiceClass,
  type RestServiceSettings,
  type HttpMethod,
  type ConnectionOptions,
} from './rest-service';
export type { RetryOptions } from './retry-policy';
export { FetchClient, type FetchFunction, type FetchResponseLike } from './connections/fetch.connection';
export { AxiosClient, type AxiosLike } from './connections/axios.connection';
export { SuperagentClient, type SuperagentLike, type SuperagentRequestLike } from './connections/superagent.connection';
export { encodeQuery } from './encode-query';
export { decodeResponse, type RawResponse, type ResponseInfo } from './decode-response';
