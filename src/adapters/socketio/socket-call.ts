import type { Application } from '../../application/app/application';
import type { RealTimeConnection } from '../../application/channels/connection';
import type { HookContext } from '../../application/hooks/hook-context';
import { BadRequest, MethodNotAllowed, NotFound } from '../../domain/errors';
import type { Params } from '../../ports/service-params';
import { checkSocketData, checkSocketQuery } from './json-argument-limits';
import type { PathMatch } from './service-path-matcher';

/** The provider of calls that come over this transport (`params.provider`). */
export const SOCKET_PROVIDER = 'socketio';

type Layout = 'query' | 'id-query' | 'data-query' | 'id-data-query';

/** Positional arguments after the path, per method (the Feathers socket protocol); custom methods take data and query. */
function layoutOf(method: string): Layout {
  switch (method) {
    case 'find':
      return 'query';
    case 'get':
    case 'remove':
      return 'id-query';
    case 'update':
    case 'patch':
      return 'id-data-query';
    default:
      return 'data-query';
  }
}

const ARITY: Record<Layout, number> = { query: 1, 'id-query': 2, 'data-query': 2, 'id-data-query': 3 };

export interface SocketCallSettings {
  app: Application;
  match(path: string): PathMatch | undefined;
}

/**
 * Runs one call frame `[method, path, ...args]` for a connection and returns its whole context.
 * Every mistake is an error (and so an ack): an unknown method name too, where Feathers stays
 * silent and leaves the client waiting.
 */
export function runSocketCall(settings: SocketCallSettings, connection: RealTimeConnection, method: unknown, path: unknown, args: unknown[]): Promise<HookContext> {
  try {
    return prepareAndRun(settings, connection, method, path, args);
  } catch (error) {
    return Promise.reject(error);
  }
}

function prepareAndRun(settings: SocketCallSettings, connection: RealTimeConnection, method: unknown, path: unknown, args: unknown[]): Promise<HookContext> {
  if (typeof method !== 'string' || method === '') throw new BadRequest('The method name must be a non-empty string');
  if (typeof path !== 'string') throw new NotFound('Invalid service path');
  const match = settings.match(path);
  if (!match) throw new NotFound(`Service '${path.slice(0, 200)}' not found`);
  const { entry, route } = match;
  if (!entry.methods.includes(method)) throw new MethodNotAllowed(`Method '${method.slice(0, 100)}' not allowed on service '${entry.path}'`);
  const layout = layoutOf(method);
  if (args.length > ARITY[layout]) throw new BadRequest(`Too many arguments for '${method}' method`);
  const query = checkSocketQuery(args[ARITY[layout] - 1]);
  const params: Params = { provider: SOCKET_PROVIDER, query, route, headers: connection.headers, connection, ip: connection.ip };
  if (connection.authentication) params.authentication = connection.authentication;
  return settings.app.execute(entry.path, method, callArguments(layout, method, args, params));
}

function callArguments(layout: Layout, method: string, args: unknown[], params: Params): unknown[] {
  switch (layout) {
    case 'query':
      return [params];
    case 'id-query':
      return [idArgument(method, args[0]), params];
    case 'data-query':
      return [dataArgument(args[0]), params];
    case 'id-data-query':
      return [idArgument(method, args[0]), dataArgument(args[1]), params];
  }
}

/** Ids keep their JSON type; `null` addresses many records (where the service allows it). */
function idArgument(method: string, id: unknown): string | number | null {
  if (typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id))) return id;
  if (id === null && method !== 'get') return null;
  throw new BadRequest(`'${method}' needs an id (a string or a number)`);
}

function dataArgument(data: unknown): unknown {
  if (data === undefined || data === null) return {};
  checkSocketData(data);
  return data;
}
