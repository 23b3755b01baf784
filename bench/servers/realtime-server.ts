/**
 * The framework side of the real-time benchmarks, as an application writes it: createApp with
 * channels, a `messages` service, every connection in one channel that hears `messages` events,
 * and the socket transport on a plain Node HTTP server. The service keeps its records in a Map,
 * as the bare socket.io baseline does, so the ratio measures the transport, the app core (hooks,
 * events) and the channels, not a store (the memory adapter's cost is in the http suite). No
 * authentication: the baseline has none either.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  attachSocketTransport,
  channels,
  createApp,
  policyScope,
  policyView,
  NotFound,
  PolicyViews,
  type HookContext,
  type Id,
  type ServicePolicy,
} from '../../src';
import { REALTIME_POLICY_ENV, reportFailure, seedMessage, SEEDED_MESSAGES, serveUntilStopped } from './server-protocol';

/** Two views of every event: a user sees the text, an admin the whole record; anyone signed in posts. */
const TWO_ROLES: ServicePolicy = (caller, { can }) => {
  if (caller.anonymous) return;
  can('read', ['id', 'text']);
  can('create', ['text', 'userId']);
  if (caller.roles.includes('admin')) can('read');
};

async function main(): Promise<void> {
  const app = createApp();
  app.configure(channels());
  const messages = new MapService();
  for (let i = 0; i < SEEDED_MESSAGES; i++) await messages.create(seedMessage(i));
  // With REALTIME_POLICY_ENV: each connection a user of its own (as after a login), every other one
  // an admin, so that every event is delivered in two views, each connection's computed from its user.
  const withPolicy = process.env[REALTIME_POLICY_ENV] === 'two-roles';
  const visibility = withPolicy
    ? new PolicyViews({ path: 'messages', policy: TWO_ROLES, rolesField: 'roles', idField: 'id', hiddenFields: [] })
    : undefined;
  app.use('messages', messages, { methods: ['get', 'create'], visibility });
  if (visibility) {
    // Calls too: each caller's rules join the query of a get and choose the answer's fields. The
    // caller is the connection's user, as the authenticate hook would set it after a login.
    const asConnectionUser = (context: HookContext, next: () => Promise<void>) => {
      context.params.user ??= context.params.connection?.user;
      return next();
    };
    const layers = [policyView(visibility), policyScope(visibility)];
    app
      .service('messages')
      .hooks({ around: { get: [asConnectionUser, ...layers], create: [asConnectionUser, ...layers] } });
  }
  let connections = 0;
  app.on('connection', (connection) => {
    connections++;
    if (withPolicy) connection.user = { id: `user-${connections}`, roles: connections % 2 === 0 ? ['admin'] : [] };
    app.channel('everyone').join(connection);
  });
  app.service('messages').publish(() => app.channel('everyone'));
  await app.setup();
  const server = createServer((_req, res) => res.writeHead(404).end());
  const logger = { debug: () => undefined, info: () => undefined, warn: console.warn, error: console.error };
  // The benchmark's clients read as fast as they can; the limit only guards against a stuck harness.
  // Events resume as in the application (its defaults): every event kept per connection for the window.
  const resume = { windowMs: 120_000, maxEventsPerConnection: 1_000, maxBytes: 64 * 1024 * 1024 };
  const transport = attachSocketTransport(app, server, {
    logger,
    production: true,
    maxBufferedBytes: 64 * 1024 * 1024,
    resume,
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  serveUntilStopped({ type: 'ready', port: (server.address() as AddressInfo).port, sampleId: '1' }, async () => {
    await transport.close();
    server.close();
  });
}

/** `get` and `create` on a Map, like the baseline's handlers. */
class MapService {
  private readonly records = new Map<string, Record<string, unknown>>();
  private nextId = 0;

  async get(id: Id): Promise<Record<string, unknown>> {
    const record = this.records.get(String(id));
    if (!record) throw new NotFound(`No record found for id '${id}'`);
    return record;
  }

  async create(data: Record<string, unknown>): Promise<Record<string, unknown>> {
    const record = { ...data, id: this.nextId++ };
    this.records.set(String(record.id), record);
    return record;
  }
}

main().catch(reportFailure);
