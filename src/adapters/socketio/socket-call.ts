import type { Application } from '../../application/app/application';
import { argumentNames, takesData, takesId } from '../../application/app/service-call';
import type { RealTimeConnection } from '../../application/channels/connection';
import type { HookContext } from '../../application/hooks/hook-context';
import type { RouteTable } from '../../application/transport/route-table';
import { callThroughTransport, type DecodedCall } from '../../application/transport/transport-call';
import { BadRequest, MethodNotAllowed, NotFound } from '../../domain/errors';
import type { NullableId } from '../../domain/id';
import type { TraceParent, TracerPort } from '../../ports/tracer.port';
import { checkSocketData, checkSocketQuery } from './json-argument-limits';
import { takeTraceContext } from './trace-context-query';

/** The provider of calls that come over this transport (`params.provider`). */
export const SOCKET_PROVIDER = 'socketio';

export interface SocketCallSettings {
  app: Application;
  routes(): RouteTable;
  /** Traces each call (a server span continuing the trace the client sent in `$traceparent`, if any). */
  tracer?: TracerPort;
}

/**
 * Runs one call frame `[method, path, ...args]` for a connection and returns its whole context.
 * The arguments after the path follow the method's argument table, with the query in the place
 * of the params. Every mistake is an error (and so an ack): an unknown method name too, where
 * Feathers stays silent and leaves the client waiting.
 */
export function runSocketCall(
  settings: SocketCallSettings,
  connection: RealTimeConnection,
  method: unknown,
  path: unknown,
  args: unknown[],
): Promise<HookContext> {
  try {
    return prepareAndRun(settings, connection, method, path, args);
  } catch (error) {
    return Promise.reject(error);
  }
}

function prepareAndRun(
  settings: SocketCallSettings,
  connection: RealTimeConnection,
  method: unknown,
  path: unknown,
  args: unknown[],
): Promise<HookContext> {
  if (typeof method !== 'string' || method === '') throw new BadRequest('The method name must be a non-empty string');
  if (typeof path !== 'string') throw new NotFound('Invalid service path');
  const match = settings.routes().match(path);
  // A socket call names the service itself; a trailing id segment is not a service.
  if (!match || match.id !== undefined) throw new NotFound(`Service '${path.slice(0, 200)}' not found`);
  const { service } = match.entry;
  if (!service.methods.includes(method))
    throw new MethodNotAllowed(`Method '${method.slice(0, 100)}' not allowed on service '${service.path}'`);
  const names = argumentNames(method);
  if (args.length > names.length) throw new BadRequest(`Too many arguments for '${method}' method`);
  // The query is always last and the data just before it.
  const { query, carrier } = takeTraceContext(checkSocketQuery(args[names.length - 1]));
  const id = takesId(method) ? idArgument(method, args[0]) : undefined;
  const decoded: DecodedCall = {
    id,
    data: takesData(method) ? dataArgument(args[names.length - 2]) : undefined,
    query,
  };
  const call = (traceParent?: TraceParent) =>
    callThroughTransport(settings.app, match, method, decoded, {
      provider: SOCKET_PROVIDER,
      headers: connection.headers,
      ip: connection.ip,
      authentication: connection.authentication,
      connection,
      traceParent,
    });
  const tracer = settings.tracer;
  if (tracer === undefined) return call();
  const attributes = () => ({
    'network.protocol.name': 'socket.io',
    'hexa.service.path': service.path,
    'hexa.service.method': method,
  });
  // Without the client's context (`$traceparent`) the call starts a trace.
  return tracer.inSpan(
    `socket.io ${service.path}.${method}`,
    { role: 'server', attributes, remoteParent: carrier },
    undefined,
    (_span, context) => call(context),
  );
}

/** Ids keep their JSON type; `null` addresses many records (where the service allows it). */
function idArgument(method: string, id: unknown): NullableId {
  if (typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id))) return id;
  if (id === null && method !== 'get') return null;
  throw new BadRequest(`'${method}' needs an id (a string or a number)`);
}

function dataArgument(data: unknown): unknown {
  if (data === undefined || data === null) return {};
  checkSocketData(data);
  return data;
}
