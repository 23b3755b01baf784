import type { Express } from 'express';
import { MemoryService } from '../../../../src/adapters/memory';
import { createApp, type Application } from '../../../../src/application/app/application';
import { errorClasses } from '../../../../src/domain/errors';
import type { Params } from '../../../../src/ports/service-params';

/** What the server saw of a call, so tests check exactly what crossed the wire. */
function seen(method: string, id: unknown, data: unknown, params: Params = {}) {
  const headers = params.headers ?? {};
  const pick = ['authorization', 'content-type', 'accept', 'x-default', 'x-call', 'x-conn', 'x-service-method'];
  return {
    method,
    id,
    data,
    query: params.query,
    route: params.route,
    headers: Object.fromEntries(
      pick.filter((name) => headers[name] !== undefined).map((name) => [name, headers[name]]),
    ),
  };
}

export class EchoService {
  async find(params?: Params) {
    return seen('find', undefined, undefined, params);
  }
  async get(id: unknown, params?: Params) {
    return seen('get', id, undefined, params);
  }
  async create(data: unknown, params?: Params) {
    return seen('create', undefined, data, params);
  }
  async update(id: unknown, data: unknown, params?: Params) {
    return seen('update', id, data, params);
  }
  async patch(id: unknown, data: unknown, params?: Params) {
    return seen('patch', id, data, params);
  }
  async remove(id: unknown, params?: Params) {
    return seen('remove', id, undefined, params);
  }
  async inspect(data: unknown, params?: Params) {
    return seen('inspect', undefined, data, params);
  }
}

export class MessageService extends MemoryService {
  async sum(data: { values: number[] }) {
    return { total: data.values.reduce((a, b) => a + b, 0) };
  }
  async shout(data: { text: string }) {
    return { text: data.text.toUpperCase() };
  }
}

/** `get(<status>)` throws the class with that code; `find` throws a non-service error (a 500). */
export class ErrorService {
  async get(id: string) {
    const cls = Object.values(errorClasses).find((candidate) => String(new candidate().code) === id);
    if (!cls) throw new Error(`no class for ${id}`);
    throw new cls(`failed with ${id}`, { id });
  }
  async find(): Promise<never> {
    throw new Error('plain failure');
  }
}

/** Every method answers `null`, so the server replies 204. */
export class EmptyService {
  async find() {
    return null;
  }
  async get() {
    return null;
  }
  async create() {
    return null;
  }
  async update() {
    return null;
  }
  async patch() {
    return null;
  }
  async remove() {
    return null;
  }
}

/** `find` waits until the test opens the gate; `started` resolves once a call arrived. */
export class GateService {
  private arrived!: () => void;
  private opened!: () => void;
  started = new Promise<void>((resolve) => {
    this.arrived = resolve;
  });
  private gate = new Promise<void>((resolve) => {
    this.opened = resolve;
  });
  async find() {
    this.arrived();
    await this.gate;
    return [];
  }
  open(): void {
    this.opened();
  }
}

export interface BehaviourApp {
  app: Application;
  gate: GateService;
}

export function buildBehaviourApp(): BehaviourApp {
  const app = createApp();
  const gate = new GateService();
  app.use('messages', new MessageService({ multi: true }), {
    methods: ['find', 'get', 'create', 'update', 'patch', 'remove', 'sum', 'shout'],
  });
  app.use('echo', new EchoService(), { methods: ['find', 'get', 'create', 'update', 'patch', 'remove', 'inspect'] });
  app.use('users/:userId/messages', new EchoService());
  app.use('api/v1/things', new MemoryService());
  app.use('errors', new ErrorService());
  app.use('empty', new EmptyService());
  app.use('gate', gate);
  return { app, gate };
}

/** Answers that our adapter never gives: a proxy's HTML 502, a bare 418, a non-JSON 200. */
export function rawRoutes(outer: Express): void {
  outer.get(
    '/raw/bad-gateway',
    (_req, res) => void res.status(502).type('html').send('<html><body>upstream down</body></html>'),
  );
  outer.get('/raw/teapot', (_req, res) => void res.status(418).type('text').send("I'm a teapot"));
  outer.get('/raw/empty-error', (_req, res) => void res.status(410).end());
  outer.get('/raw/text-ok', (_req, res) => void res.status(200).type('text').send('hello'));
  outer.get('/raw/no-content', (_req, res) => void res.status(204).end());
}
