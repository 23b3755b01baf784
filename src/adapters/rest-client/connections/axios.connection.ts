import { copyWith } from '../../../domain/plain-record';
import { createAbortGuard } from '../abort-guard';
import { decodeResponse } from '../decode-response';
import { abortError, transportError } from '../request-errors';
import { callTimeout, libraryOptions, RestService, type ConnectionOptions, type RestRequest } from '../rest-service';

/** The part of an axios instance the client uses (structural, so axios stays optional). */
export interface AxiosLike {
  request(
    config: Record<string, any>,
  ): Promise<{ status: number; statusText?: string; headers: unknown; data: unknown }>;
}

/**
 * The axios connection. `params.connection` is spread into the request config (e.g. `auth`,
 * `withCredentials`, `signal`). The client takes the raw text and decodes it itself, so 204,
 * non-JSON bodies and errors behave exactly as with fetch and superagent.
 */
export class AxiosClient<T = any, D = Partial<T>> extends RestService<T, D, any, AxiosLike> {
  protected async request(request: RestRequest, connection: ConnectionOptions): Promise<unknown> {
    const guard = createAbortGuard(connection.signal, callTimeout(connection, this.options));
    const config: Record<string, unknown> = copyWith(libraryOptions(connection), {
      url: request.url,
      method: request.method,
      headers: request.headers,
      data: request.body,
      responseType: 'text',
      // The body is JSON text already and the response is decoded by `decodeResponse`.
      transformRequest: [(data: unknown) => data],
      transformResponse: [(data: unknown) => data],
      validateStatus: () => true,
    });
    if (guard.signal) config.signal = guard.signal;
    let response: Awaited<ReturnType<AxiosLike['request']>>;
    try {
      response = await this.connection.request(config);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      throw guard.failure() ?? (code === 'ERR_CANCELED' ? abortError(error) : transportError(error));
    } finally {
      guard.dispose();
    }
    const { data } = response;
    return decodeResponse({
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
      text: typeof data === 'string' ? data : data === undefined || data === null ? '' : undefined,
      body: data,
    });
  }
}
