import { createAbortGuard } from '../abort-guard';
import { decodeResponse } from '../decode-response';
import { transportError } from '../request-errors';
import { callTimeout, libraryOptions, RestService, type ConnectionOptions, type RestRequest } from '../rest-service';

/** The part of a fetch `Response` the client reads. */
export interface FetchResponseLike {
  status: number;
  statusText?: string;
  headers: unknown;
  text(): Promise<string>;
}

/** `fetch` or anything with its signature (node-fetch, a test double). */
export type FetchFunction = (input: string, init?: Record<string, any>) => Promise<FetchResponseLike>;

/**
 * The fetch connection. `params.connection` is spread into the fetch options (`signal`,
 * `credentials`, `mode`, ...), its `headers` merged with `params.headers`. Subclass it to override
 * `getQuery(query)` and pass the subclass as `rest(url).fetch(fetch, [options], MyClient)`.
 *
 * In a browser pass `window.fetch.bind(window)`; the unbound global `fetch` is bound by `rest()`.
 */
export class FetchClient<T = any, D = Partial<T>> extends RestService<T, D, any, FetchFunction> {
  protected async request(request: RestRequest, connection: ConnectionOptions): Promise<unknown> {
    const guard = createAbortGuard(connection.signal, callTimeout(connection, this.options));
    const init = libraryOptions(connection);
    init.method = request.method;
    init.headers = request.headers;
    if (request.body !== undefined) init.body = request.body;
    if (guard.signal) init.signal = guard.signal;
    // Called as a plain function: `this.connection(...)` would make the client its receiver.
    const fetchFunction = this.connection;
    try {
      const response = await fetchFunction(request.url, init);
      const text = await response.text();
      return decodeResponse({
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
        text,
      });
    } catch (error) {
      throw guard.failure() ?? (hasResponse(error) ? error : transportError(error));
    } finally {
      guard.dispose();
    }
  }
}

/** Errors from `decodeResponse` carry the response and are final. */
function hasResponse(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'response' in error;
}
