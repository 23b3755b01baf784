import type { Application } from '../app/application';
import { takesData, takesId, type ServiceCall } from '../app/service-call';
import type { RealTimeConnection } from '../channels/connection';
import type { HookContext } from '../hooks/hook-context';
import type { NullableId } from '../../domain/id';
import type { Query } from '../../domain/query';
import type { Params } from '../../ports/service-params';
import { TRACE_PARENT, type TraceParent } from '../../ports/tracer.port';
import type { RouteMatch } from './route-table';

/** Where a call comes from: the part of its params that the transport knows. */
export interface CallOrigin {
  /** `params.provider`: 'rest' over HTTP, 'socketio' over a socket. */
  readonly provider: string;
  readonly headers: Params['headers'];
  /** The client's address, as the transport's proxy settings resolve it. */
  readonly ip: string | undefined;
  /** The credentials of the call: a bearer header over HTTP, the connection's login over a socket. */
  readonly authentication: Params['authentication'] | undefined;
  /** The real-time connection the call came over, if any. */
  readonly connection?: RealTimeConnection;
  /** With tracing on, the transport's span (HTTP server, socket call): the call's span is its child. */
  readonly traceParent?: TraceParent;
}

/** What a transport decoded from its input; `id` and `data` are used only where the method takes them. */
export interface DecodedCall {
  readonly id?: NullableId;
  readonly data?: unknown;
  readonly query: Query;
}

/**
 * Calls the service a route matched, the same way for every transport: `params` is built here,
 * once, and becomes the hook context's own (no argument array in between). The transport has
 * checked that `method` is one the service lists for transports.
 */
export function callThroughTransport(
  app: Application,
  match: Pick<RouteMatch, 'entry' | 'route'>,
  method: string,
  decoded: DecodedCall,
  origin: CallOrigin,
): Promise<HookContext> {
  const params: Params = {
    provider: origin.provider,
    query: decoded.query,
    route: match.route,
    headers: origin.headers,
    ip: origin.ip,
  };
  if (origin.connection) params.connection = origin.connection;
  if (origin.authentication) params.authentication = origin.authentication;
  if (origin.traceParent) params[TRACE_PARENT] = origin.traceParent;
  // Only the arguments the method takes (the argument table), whatever the transport decoded.
  const call: ServiceCall = { params };
  if (takesId(method)) call.id = decoded.id ?? null;
  if (takesData(method)) call.data = decoded.data;
  return app.execute(match.entry.service.path, method, call);
}

/** The answer of a successful call: the transport-safe `dispatch` when a hook set one, else the result. */
export function answerOf(context: HookContext): unknown {
  return context.dispatch !== undefined ? context.dispatch : context.result;
}
