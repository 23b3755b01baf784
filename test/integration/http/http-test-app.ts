import type http from 'node:http';
import { createHttpAdapter, listenHttp, type HttpAdapterOptions, type ListenOptions } from '../../../src/adapters/http';
import { MemoryService } from '../../../src/adapters/memory';
import { createApp, type Application } from '../../../src/application/app/application';
import type { Params } from '../../../src/ports/service-params';

/** Echoes how it was called, so tests see exactly what the adapter passed. */
export class EchoService {
  private call(method: string, id: unknown, data: unknown, params: Params = {}) {
    const { provider, query, route, authentication, headers } = params;
    return { method, id, data, provider, query, route, authentication, userAgent: headers?.['x-test'] };
  }
  async find(params?: Params) {
    return this.call('find', undefined, undefined, params);
  }
  async get(id: unknown, params?: Params) {
    return this.call('get', id, undefined, params);
  }
  async create(data: unknown, params?: Params) {
    return this.call('create', undefined, data, params);
  }
  async update(id: unknown, data: unknown, params?: Params) {
    return this.call('update', id, data, params);
  }
  async patch(id: unknown, data: unknown, params?: Params) {
    return this.call('patch', id, data, params);
  }
  async remove(id: unknown, params?: Params) {
    return this.call('remove', id, undefined, params);
  }
}

/** A memory service with a custom method, as `todos` in the tests. */
export class TodoService extends MemoryService {
  async markRead(data: { id?: unknown }, params?: Params) {
    return { marked: data.id, provider: params?.provider, query: params?.query };
  }
  async nothing() {
    return null;
  }
}

export interface TestAppOptions {
  multi?: boolean;
}

/**
 * `messages` (memory, paginate {default:10,max:50}), `users/:userId/messages` (echo), `echo`,
 * `todos` (memory + `markRead`, no update/patch/remove over HTTP) and `read-only` (find/get only).
 */
export function buildTestApp(options: TestAppOptions = {}): Application {
  const app = createApp();
  app.use('messages', new MemoryService({ paginate: { default: 10, max: 50 }, multi: options.multi ?? false }));
  app.use('users/:userId/messages', new EchoService());
  app.use('echo', new EchoService());
  app.use('todos', new TodoService(), { methods: ['find', 'get', 'create', 'markRead', 'nothing'] });
  app.use('read-only', new MemoryService(), { methods: ['find', 'get'] });
  return app;
}

export interface RunningServer {
  server: http.Server;
  url: string;
  close(): Promise<void>;
}

/** A real server on 127.0.0.1, port 0, as `npm start` serves one (client errors answered, graceful close). */
export async function startServer(
  app: Application,
  options?: HttpAdapterOptions,
  listenOptions?: ListenOptions,
): Promise<RunningServer> {
  const { server, url, close } = await listenHttp(createHttpAdapter(app, options), listenOptions);
  return { server, url, close };
}

/** A logger that keeps every entry, to assert on the request log lines. */
export function memoryLogger() {
  const lines: { level: string; obj: any; msg?: string }[] = [];
  const at = (level: string) => (obj: object | string, msg?: string) => {
    lines.push({ level, obj, msg });
  };
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

export const FEATHERS_ERROR_KEYS = ['name', 'message', 'code', 'className'];
