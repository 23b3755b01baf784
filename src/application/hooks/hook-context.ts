import type { Id, NullableId } from '../../domain/id';
import type { Params } from '../../ports/service-params';
import { argumentsOfCall, type ServiceCall } from '../app/service-call';

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
  /** The call's positional arguments, read-only (change `id`, `data` or `params` instead). */
  readonly arguments: unknown[];
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

export const DEFAULT_EVENTS: Readonly<Record<string, string>> = {
  create: 'created',
  update: 'updated',
  patch: 'patched',
  remove: 'removed',
};

/** The context of one call, made from the call itself: its `params` object is the call's own. */
export function createContext(
  app: unknown,
  service: unknown,
  path: string,
  method: string,
  call: ServiceCall,
): HookContext {
  const context = new CallContext(app, service, path, method, call.params);
  context.id = call.id;
  context.data = call.data;
  if (call.params.provider) context.http = {};
  return context;
}

/** A class rather than a literal: one shape for every call, and `arguments` made only when read. */
class CallContext implements HookContext {
  type: HookType = 'around';
  id?: NullableId | Id;
  data?: any;
  result?: any;
  dispatch?: any;
  error?: any;
  http?: HttpContext;
  event: string | null;
  [key: string]: any;

  constructor(
    readonly app: unknown,
    readonly service: unknown,
    readonly path: string,
    readonly method: string,
    public params: Params,
  ) {
    this.event = DEFAULT_EVENTS[method] ?? null;
  }

  /** The call's positional arguments as they stand now (Feathers' `context.arguments`). */
  get arguments(): unknown[] {
    return argumentsOfCall(this.method, this);
  }
}
