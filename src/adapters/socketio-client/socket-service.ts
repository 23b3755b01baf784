import { DECLARE_METHODS } from '../../application/app/registered-service';
import { isReservedMethodName } from '../../application/app/reserved-names';
import { mapRoutePlaceholders } from '../../application/app/route-placeholders';
import { BadRequest, convert, Timeout } from '../../domain/errors';
import type { Id, NullableId } from '../../domain/id';
import type { Params } from '../../ports/service-params';
import { STANDARD_METHODS } from '../../ports/service.port';
import type { SocketLike } from './socket-like';

type Listener = (...args: any[]) => void;

export interface SocketServiceSettings {
  name: string;
  socket: SocketLike;
  /** Milliseconds before a call without an answer fails with `Timeout`. Default 30 000; 0 waits forever. */
  timeout?: number;
}

/**
 * A remote service over a socket.io connection (the Feathers v5 socket protocol): a call is an
 * event named after the method with the path, positional arguments and `params.query`; the ack
 * answers it. Events come only from the server (`"<path> <event>"`), as the server published
 * them: calls made here are not echoed locally, so an own `create` is heard once, if the
 * server's channels send it to this connection.
 */
export class SocketService {
  readonly path: string;
  readonly socket: SocketLike;
  private readonly timeout: number;
  private readonly listeners = new Map<string, Map<Listener, Listener>>();

  constructor(settings: SocketServiceSettings) {
    this.path = settings.name.replace(/^\/+|\/+$/g, '');
    this.socket = settings.socket;
    this.timeout = settings.timeout ?? 30_000;
  }

  find(params: Params = {}): Promise<any> {
    return this.send('find', params);
  }

  get(id: Id, params: Params = {}): Promise<any> {
    if (id === undefined || id === null || id === '') return Promise.reject(new BadRequest('id for .get is required'));
    return this.send('get', params, id);
  }

  create(data: unknown, params: Params = {}): Promise<any> {
    return this.send('create', params, data);
  }

  update(id: NullableId, data: unknown, params: Params = {}): Promise<any> {
    return this.send('update', params, id, data);
  }

  patch(id: NullableId, data: unknown, params: Params = {}): Promise<any> {
    return this.send('patch', params, id, data);
  }

  remove(id: NullableId, params: Params = {}): Promise<any> {
    return this.send('remove', params, id);
  }

  /** Adds custom methods (`(data, params)`); `app.use(name, service, { methods })` calls it for the listed ones. */
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
        value: (data?: unknown, params: Params = {}) => this.send(name, params, data),
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

  // Events: listeners on this service are listeners on the socket's "<path> <event>".
  on(event: string, listener: Listener): this {
    let forEvent = this.listeners.get(event);
    if (!forEvent) this.listeners.set(event, (forEvent = new Map()));
    if (forEvent.has(listener)) return this;
    const wrapped: Listener = (...args) => listener(...args);
    forEvent.set(listener, wrapped);
    this.socket.on(`${this.path} ${event}`, wrapped);
    return this;
  }

  addListener(event: string, listener: Listener): this {
    return this.on(event, listener);
  }

  once(event: string, listener: Listener): this {
    const wrapped: Listener = (...args) => {
      this.off(event, wrapped);
      listener(...args);
    };
    return this.on(event, wrapped);
  }

  off(event: string, listener?: Listener): this {
    const forEvent = this.listeners.get(event);
    if (!forEvent) return this;
    for (const [original, wrapped] of [...forEvent]) {
      if (listener && listener !== original) continue;
      this.socket.off(`${this.path} ${event}`, wrapped);
      forEvent.delete(original);
    }
    return this;
  }

  removeListener(event: string, listener?: Listener): this {
    return this.off(event, listener);
  }

  removeAllListeners(event?: string): this {
    for (const name of event === undefined ? [...this.listeners.keys()] : [event]) this.off(name);
    return this;
  }

  listenerCount(event: string): number {
    return this.listeners.get(event)?.size ?? 0;
  }

  /** The app emits after each call it makes; over sockets the server's event is the one clients hear. */
  emit(): boolean {
    return false;
  }

  /** `[method, path, ...positional, query]`, then the ack `[error]` or `[null, result]`. */
  private send(method: string, params: Params, ...positional: unknown[]): Promise<any> {
    let path: string;
    try {
      path = fillRoute(this.path, params.route);
    } catch (error) {
      return Promise.reject(error);
    }
    return new Promise((resolve, reject) => {
      const timer =
        this.timeout > 0
          ? setTimeout(
              () => reject(new Timeout(`No answer to ${method} on '${path}' within ${this.timeout} ms`)),
              this.timeout,
            )
          : undefined;
      this.socket.emit(method, path, ...positional, params.query ?? {}, (error: unknown, result: unknown) => {
        if (timer !== undefined) clearTimeout(timer);
        if (error) reject(convert(error));
        else resolve(result);
      });
    });
  }
}

/**
 * `rooms/:roomId/notes` with `params.route.roomId` is `rooms/7/notes`; a missing value (or one with a slash) is a 400.
 */
function fillRoute(path: string, route?: Record<string, unknown>): string {
  return mapRoutePlaceholders(path, (name, segment) => {
    const value = route?.[name];
    const text = value === undefined || value === null ? '' : String(value);
    if (text === '' || text.includes('/')) throw new BadRequest(`Invalid value for route placeholder ${segment}`);
    return text;
  });
}
