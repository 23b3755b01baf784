import type { Query } from '../domain/query';
import type { ServiceCallerInfo } from './service-caller';
import { TRACE_PARENT, type TraceParent } from './tracer.port';

/** Per-call pagination: an object replaces the service's setting, `false` disables it. */
export type PaginationOptions = { default?: number; max?: number };

/** The parameters of every service call (the seed's params table plus transport fields). */
export interface Params<Q = Query> {
  /** Conditions and filters. Over HTTP every value arrives as a string until a query hook converts it. */
  query?: Q;
  /** 'rest' for calls from the HTTP adapter; undefined for internal calls. */
  provider?: string;
  /** Request headers (server) or extra headers to send (client). */
  headers?: Record<string, string | string[] | undefined>;
  /** Values of `:name` placeholders in the service path. */
  route?: Record<string, string>;
  /** Request-library options (client); with fetch it may carry `signal`. `headers` merge with `params.headers`. */
  connection?: Record<string, any>;
  /** The authenticated user, set by the authentication hook. */
  user?: Record<string, any>;
  /** Credentials of the call, e.g. `{ strategy: 'jwt', accessToken }` parsed from a bearer header. */
  authentication?: { strategy: string; accessToken?: string; [key: string]: unknown };
  /** Per-call pagination override. */
  paginate?: PaginationOptions | false;
  /** Adapter options overriding the service's options for this call (e.g. `Model`, `multi`). */
  adapter?: Record<string, any>;
  /** Aggregation stages appended to a `find` (or placed at a `{ $service: {} }` stage). */
  pipeline?: Record<string, unknown>[];
  /** Options passed to every database call of the method (e.g. a transaction `session`). */
  database?: Record<string, any>;
  /** Collation for `find`, `patch` and `remove` (MongoDB). */
  collation?: { locale: string; strength?: number; [key: string]: unknown };
  /** Set by the authentication hook when another server makes the call with its service credential (for `user`). */
  serviceCaller?: ServiceCallerInfo;
  /**
   * With tracing on, the span the call runs in: what it calls (the store, the REST client, internal calls) starts its
   * spans as children of it.
   */
  [TRACE_PARENT]?: TraceParent;
  [key: string]: any;
}
