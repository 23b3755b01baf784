import type { Id, NullableId } from '../../domain/id';
import type { Params } from '../../ports/service-params';

export type HookType = 'around' | 'before' | 'after' | 'error';

/** What a transport may set on a successful call (the HTTP adapter reads it). */
export interface HttpContext {
  status?: number;
  headers?: Record<string, string | string[]>;
  location?: string;
}

/** The context every hook receives. `params` defaults to `{}`; `id`, `data`, `params`, `result` are writable. */
export interface HookContext<A = any, S = any> {
  readonly app: A;
  readonly service: S;
  readonly path: string;
  readonly method: string;
  type: HookType;
  arguments: unknown[];
  id?: NullableId | Id;
  data?: any;
  params: Params;
  result?: any;
  /** A transport-safe version of `result` (e.g. without hidden fields); transports prefer it. */
  dispatch?: any;
  error?: any;
  /** The event to emit after success; `null` suppresses it. */
  event: string | null;
  /** Set for calls from the HTTP adapter; hooks may set status, headers and location. */
  http?: HttpContext;
  [key: string]: any;
}

export const DEFAULT_EVENTS: Readonly<Record<string, string>> = { create: 'created', update: 'updated', patch: 'patched', remove: 'removed' };

type ArgumentName = 'id' | 'data' | 'params';
const ID_PARAMS: readonly ArgumentName[] = Object.freeze(['id', 'params']);
const ID_DATA_PARAMS: readonly ArgumentName[] = Object.freeze(['id', 'data', 'params']);
const DATA_PARAMS: readonly ArgumentName[] = Object.freeze(['data', 'params']);
const PARAMS: readonly ArgumentName[] = Object.freeze(['params']);

/** The argument layout of each standard method; custom methods are `(data, params)`. */
export function argumentNames(method: string): readonly ArgumentName[] {
  switch (method) {
    case 'find':
      return PARAMS;
    case 'get':
    case 'remove':
      return ID_PARAMS;
    case 'update':
    case 'patch':
      return ID_DATA_PARAMS;
    default:
      return DATA_PARAMS;
  }
}

export function createContext(app: unknown, service: unknown, path: string, method: string, args: unknown[]): HookContext {
  const names = argumentNames(method);
  const params = (args[names.length - 1] as Params | undefined) ?? {};
  const context: HookContext = { app, service, path, method, type: 'around', arguments: args, params, event: DEFAULT_EVENTS[method] ?? null };
  // Named stores rather than `context[name]`: this runs on every call.
  if (names === ID_PARAMS) context.id = args[0] as NullableId;
  else if (names === ID_DATA_PARAMS) {
    context.id = args[0] as NullableId;
    context.data = args[1];
  } else if (names === DATA_PARAMS) context.data = args[0];
  if (params.provider) context.http = {};
  return context;
}

/** Rebuilds the call arguments from the (possibly changed) context. */
export function contextArguments(context: HookContext): unknown[] {
  const names = argumentNames(context.method);
  if (names === PARAMS) return [context.params];
  if (names === ID_PARAMS) return [context.id, context.params];
  if (names === ID_DATA_PARAMS) return [context.id, context.data, context.params];
  return [context.data, context.params];
}
