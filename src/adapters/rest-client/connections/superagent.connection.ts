import { createAbortGuard } from '../abort-guard';
import { decodeResponse } from '../decode-response';
import { transportError } from '../request-errors';
import { callTimeout, libraryOptions, RestService, type ConnectionOptions, type RestRequest } from '../rest-service';

/** The part of a superagent request the client uses. */
export interface SuperagentRequestLike {
  set(headers: Record<string, string>): SuperagentRequestLike;
  send(body: string): SuperagentRequestLike;
  ok(accept: (response: unknown) => boolean): SuperagentRequestLike;
  abort(): unknown;
  end(callback: (error: any, response: any) => void): void;
  buffer?: (enable?: boolean) => SuperagentRequestLike;
  [option: string]: any;
}

/** `superagent` itself: callable as `superagent(method, url)`. */
export type SuperagentLike = (method: string, url: string) => SuperagentRequestLike;

/** `params.connection` keys applied by calling the request method of that name (arrays are spread). */
const REQUEST_OPTIONS = new Set([
  'retry',
  'redirects',
  'withCredentials',
  'auth',
  'ca',
  'cert',
  'key',
  'pfx',
  'agent',
  'disableTLSCerts',
  'maxResponseSize',
  'http2',
  'query',
  'accept',
  'responseType',
]);

/**
 * The superagent connection. superagent configures requests by method calls, so each key of
 * `params.connection` (besides `headers`, `signal`, `timeout`) calls the request method of that
 * name, e.g. `{ withCredentials: true, retry: 2, auth: ['user', 'pass'] }`.
 */
export class SuperagentClient<T = any, D = Partial<T>> extends RestService<T, D, any, SuperagentLike> {
  protected async request(request: RestRequest, connection: ConnectionOptions): Promise<unknown> {
    const call = this.connection(request.method, request.url)
      .set(request.headers)
      .ok(() => true);
    // Node's superagent only buffers known text types; the decoder needs every body as text. The
    // browser build always has the text and aliases `buffer` to a warning stub (= `agent`).
    if (typeof call.buffer === 'function' && call.buffer !== call.agent) call.buffer(true);
    applyOptions(call, libraryOptions(connection));
    if (request.body !== undefined) call.send(request.body);
    const guard = createAbortGuard(connection.signal, callTimeout(connection, this.options));
    try {
      const response = await new Promise<any>((resolve, reject) => {
        const onAbort = (): void => {
          call.abort();
          reject(guard.failure());
        };
        if (guard.signal?.aborted) return onAbort();
        guard.signal?.addEventListener('abort', onAbort, { once: true });
        call.end((error, result) => (error && !result ? reject(transportError(error)) : resolve(result)));
      });
      const text = typeof response.text === 'string' ? response.text : undefined;
      return decodeResponse({
        status: response.status,
        statusText: response.statusText ?? '',
        headers: response.headers ?? response.header,
        text,
        body: response.body,
      });
    } finally {
      guard.dispose();
    }
  }
}

function applyOptions(call: SuperagentRequestLike, options: ConnectionOptions): void {
  for (const [key, value] of Object.entries(options)) {
    if (!REQUEST_OPTIONS.has(key) || typeof call[key] !== 'function') {
      throw new TypeError(`params.connection.${key} is not a superagent request option this client supports`);
    }
    if (key === 'withCredentials' && value === false) continue;
    call[key](...(Array.isArray(value) ? value : [value]));
  }
}
