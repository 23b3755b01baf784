import { DECLARE_METHODS } from '../../application/app/registered-service';
import { isReservedMethodName } from '../../application/app/reserved-names';
import { BadRequest } from '../../domain/errors';
import type { Id, NullableId } from '../../domain/id';
import type { Paginated } from '../../domain/paginated';
import { copyWith } from '../../domain/plain-record';
import type { Params } from '../../ports/service-params';
import { TRACE_PARENT, type TraceParent, type TracerPort } from '../../ports/tracer.port';
import { STANDARD_METHODS } from '../../ports/service.port';
import { buildUrl, servicePath } from './build-url';
import { encodeQuery } from './encode-query';
import { mergeHeaders } from './merge-headers';
import { IDEMPOTENCY_HEADER } from '../../application/idempotency/idempotency-key';
import { carriesIdempotencyKey, mayRetry, newIdempotencyKey, retryDelay, type RetryOptions } from './retry-policy';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Defaults of one client (the second argument of `rest(url).fetch(fetch, options)`). */
export interface RestClientOptions {
  /** Sent with every request, e.g. `{ Authorization: 'Bearer <token>' }`. */
  headers?: Record<string, string>;
  /** Milliseconds before a call fails with `Timeout`; `params.connection.timeout` overrides it per call. */
  timeout?: number;
  /**
   * Tries again a call that got no answer (unreachable, timed out, 502/503/504) when repeating it
   * is safe: reads, `update` and `remove`, and writes that carry an `Idempotency-Key` (in
   * `params.headers`, or one per call with `idempotencyKeys: true`). Off by default.
   */
  retry?: RetryOptions;
  /**
   * Traces each request (an HTTP client span) and sends the trace on with it (`traceparent`, `tracestate`, `baggage`).
   */
  tracer?: TracerPort;
}

/** One HTTP request, library-neutral; `body` is already JSON text. */
export interface RestRequest {
  url: string;
  method: HttpMethod;
  headers: Record<string, string>;
  body?: string;
}

/**
 * What a connection receives besides the request: `params.connection` (its `headers` are already
 * in the request's). `libraryOptions(connection)` gives what is meant for the library.
 */
export type ConnectionOptions = Record<string, any>;

const NO_CONNECTION_OPTIONS: ConnectionOptions = Object.freeze({});
const JSON_CONTENT = Object.freeze({ 'content-type': 'application/json' });

/**
 * `params.connection` without the keys the client handles itself (`headers`, `signal`, `timeout`): the library's own
 * options.
 */
export function libraryOptions(connection: ConnectionOptions): Record<string, unknown> {
  const options: Record<string, unknown> = {};
  for (const key in connection) {
    if (Object.hasOwn(connection, key) && key !== 'headers' && key !== 'signal' && key !== 'timeout')
      options[key] = connection[key];
  }
  return options;
}

/** The call's timeout: `params.connection.timeout` when given, else the client's. */
export function callTimeout(connection: ConnectionOptions, options: RestClientOptions): number | undefined {
  return connection.timeout === undefined ? options.timeout : connection.timeout;
}

export interface RestServiceSettings<C> {
  /** The base URL (already resolved: no trailing slash). */
  base: string;
  /** The service path; may hold `:name` placeholders filled from `params.route`. */
  name: string;
  connection: C;
  options?: RestClientOptions;
}

export type RestServiceClass<S extends RestService = RestService, C = any> = new (
  settings: RestServiceSettings<C>,
) => S;

/**
 * A remote service: the standard methods mapped onto HTTP (seed Endpoints table), custom methods
 * as POST with `X-Service-Method`. Each connection (fetch, axios, superagent) implements `request`.
 */
export abstract class RestService<T = any, D = Partial<T>, P extends Params = Params, C = any> {
  readonly base: string;
  readonly name: string;
  readonly connection: C;
  /** The client's options, frozen: its default headers are merged once, here. */
  readonly options: Readonly<RestClientOptions>;
  /** `Accept` and the client's default headers, merged once: most calls send just these. */
  private readonly defaultHeaders: Readonly<Record<string, string>>;

  constructor(settings: RestServiceSettings<C>) {
    this.base = settings.base;
    this.name = servicePath(settings.name);
    this.connection = settings.connection;
    this.options = Object.freeze(
      copyWith(settings.options ?? {}, { headers: Object.freeze({ ...settings.options?.headers }) }),
    );
    this.defaultHeaders = Object.freeze(mergeHeaders({ accept: 'application/json' }, this.options.headers));
  }

  /** The query string for `query`: `?...` (qs, as the server parses it) or '' when empty. Override to customise. */
  getQuery(query: Record<string, unknown> | undefined): string {
    return encodeQuery(query);
  }

  makeUrl(query: Record<string, unknown> | undefined, id?: NullableId, route?: Record<string, unknown>): string {
    return buildUrl(this.base, this.name, id, route, this.getQuery(query ?? {}));
  }

  /** Sends the request with the library and decodes the response (or throws the revived error). */
  protected abstract request(request: RestRequest, connection: ConnectionOptions): Promise<unknown>;

  // `return await`: one microtask turn fewer than returning the promise from an async method.
  async find(params: P = {} as P): Promise<T[] | Paginated<T>> {
    return (await this.send('GET', this.makeUrl(params.query, null, params.route), undefined, params)) as
      T[] | Paginated<T>;
  }

  async get(id: Id, params: P = {} as P): Promise<T> {
    requireId(id, 'get', false);
    return (await this.send('GET', this.makeUrl(params.query, id, params.route), undefined, params)) as T;
  }

  async create(data: D | D[], params: P = {} as P): Promise<T | T[]> {
    return (await this.send('POST', this.makeUrl(params.query, null, params.route), data, params)) as T | T[];
  }

  async update(id: NullableId, data: D, params: P = {} as P): Promise<T | T[]> {
    requireId(id, 'update', true);
    return (await this.send('PUT', this.makeUrl(params.query, id, params.route), data, params)) as T | T[];
  }

  async patch(id: NullableId, data: Partial<D>, params: P = {} as P): Promise<T | T[]> {
    requireId(id, 'patch', true);
    return (await this.send('PATCH', this.makeUrl(params.query, id, params.route), data, params)) as T | T[];
  }

  async remove(id: NullableId, params: P = {} as P): Promise<T | T[]> {
    requireId(id, 'remove', true);
    return (await this.send('DELETE', this.makeUrl(params.query, id, params.route), undefined, params)) as T | T[];
  }

  /**
   * Adds custom methods that POST their data with `X-Service-Method: <name>`. `app.use(name,
   * service, { methods })` calls it for the listed custom methods, so only listed ones exist.
   */
  methods(...names: string[]): this {
    for (const name of names) {
      if (
        typeof name !== 'string' ||
        (STANDARD_METHODS as readonly string[]).includes(name) ||
        isReservedMethodName(name)
      )
        continue;
      if (typeof (this as Record<string, unknown>)[name] === 'function') continue;
      Object.defineProperty(this, name, {
        // async: a bad route or query rejects like the standard methods instead of throwing.
        value: async (data?: unknown, params: P = {} as P) =>
          await this.send('POST', this.makeUrl(params.query, null, params.route), data, params, {
            'X-Service-Method': name,
          }),
        configurable: true,
        writable: true,
        enumerable: false,
      });
    }
    return this;
  }

  [DECLARE_METHODS](names: string[]): void {
    this.methods(...names);
  }

  /** Not async: each method awaits it, so a throw here (e.g. circular data) still rejects the call. */
  protected send(
    method: HttpMethod,
    url: string,
    data: unknown,
    params: P,
    extra?: Record<string, string>,
  ): Promise<unknown> {
    const connection = (params.connection ?? NO_CONNECTION_OPTIONS) as ConnectionOptions;
    const body = data === undefined ? undefined : JSON.stringify(data);
    const headers =
      body === undefined && params.headers === undefined && connection.headers === undefined && extra === undefined
        ? { ...this.defaultHeaders }
        : mergeHeaders(
            this.defaultHeaders,
            body === undefined ? undefined : JSON_CONTENT,
            params.headers,
            connection.headers,
            extra,
          );
    const request: RestRequest = { url, method, headers, body };
    const tracer = this.options.tracer;
    return tracer === undefined
      ? this.dispatch(request, connection)
      : this.sendTraced(tracer, request, connection, params[TRACE_PARENT]);
  }

  /**
   * Once, or with retries where the client has them (a write gets its Idempotency-Key here, with `idempotencyKeys`).
   */
  private dispatch(request: RestRequest, connection: ConnectionOptions): Promise<unknown> {
    const retry = this.options.retry;
    if (!retry || retry.attempts <= 0) return this.request(request, connection);
    const { method, headers } = request;
    if (retry.idempotencyKeys && (method === 'POST' || method === 'PATCH') && !carriesIdempotencyKey(headers))
      headers[IDEMPOTENCY_HEADER] = newIdempotencyKey();
    return this.sendWithRetries(request, connection, retry);
  }

  /**
   * The request inside its client span (a child of the call's `params[TRACE_PARENT]`), whose
   * context it carries; retries are in the same span. The span names the server and the path,
   * not the query string (it may hold anything a caller searched for).
   */
  private sendTraced(
    tracer: TracerPort,
    request: RestRequest,
    connection: ConnectionOptions,
    parent: TraceParent | undefined,
  ): Promise<unknown> {
    const attributes = () => {
      const target = new URL(request.url);
      return {
        'http.request.method': request.method,
        'server.address': target.hostname,
        'server.port': Number(target.port) || (target.protocol === 'https:' ? 443 : 80),
        'url.full': `${target.origin}${target.pathname}`,
      };
    };
    return tracer.inSpan(request.method, { role: 'client', attributes }, parent, async (span, context) => {
      tracer.inject(context, request.headers);
      try {
        return await this.dispatch(request, connection);
      } catch (error) {
        const status = (error as { code?: unknown }).code;
        if (span.recording && typeof status === 'number' && status >= 100)
          span.setAttributes({ 'http.response.status_code': status });
        throw error;
      }
    });
  }

  /** Each try the same request (the same key); none after the caller's signal aborted. */
  private async sendWithRetries(
    request: RestRequest,
    connection: ConnectionOptions,
    retry: RetryOptions,
  ): Promise<unknown> {
    for (let tried = 0; ; tried += 1) {
      try {
        return await this.request(request, connection);
      } catch (error) {
        const signal = connection.signal as AbortSignal | undefined;
        if (tried >= retry.attempts || signal?.aborted || !mayRetry(error, request.method, request.headers))
          throw error;
        await new Promise((resolve) => setTimeout(resolve, retryDelay(retry, tried)));
      }
    }
  }
}

/** `get` needs an id; the others accept `null` (every matching record) but not a missing one. */
function requireId(id: unknown, method: string, nullable: boolean): void {
  if (id === undefined || id === '' || (!nullable && id === null))
    throw new BadRequest(`id for .${method} is required`);
}
