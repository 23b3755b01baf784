/**
 * The framework side of the HTTP benchmarks, written the way an application would be: createApp,
 * a `messages` service (MemoryService, or DatabaseService on the embedded server), with
 * authentication on the framework's own `authenticate('jwt')` hook (AuthenticationService +
 * JwtAuthenticationStrategy, which verifies the bearer token and loads its user from the `users`
 * service on every call), mounted by createHttpAdapter on a plain Node HTTP server. With the
 * `policy` setting, `messages` gets the bench's policy (`bench-messages-policy.ts`). With
 * `tracingRatio`, the app is traced as `OTEL_EXPORTER_OTLP_ENDPOINT` traces a composed one (HTTP
 * server, service call and store spans), sampled at that ratio and exported over OTLP/protobuf to
 * a sink that discards each export in a process of its own: the measured process pays for making
 * and sending the spans, as a traced server does, not for receiving them, which is the collector's work.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  authenticate,
  AuthenticationService,
  createApp,
  createHttpAdapter,
  createJwtSettings,
  DatabaseService,
  policyScope,
  policyView,
  JsonWebTokenIssuer,
  JwtAuthenticationStrategy,
  MemoryService,
  PolicyViews,
  startEmbeddedMongo,
} from '../../src';
import type { OpenTelemetryTracer } from '../../src/adapters/opentelemetry';
import { observeStoreCalls } from '../../src/application/adapter/observe-store-calls';
import { observeServiceCalls } from '../../src/application/observability/observe-service-calls';
import { BENCH_MESSAGES_POLICY, BENCH_POLICY_METHODS } from './bench-messages-policy';
import { startOtlpSink } from './otlp-sink';
import {
  BENCH_USER,
  PAGINATE,
  SEEDED_MESSAGES,
  reportFailure,
  seedMessage,
  serveUntilStopped,
  settingsFromEnv,
} from './server-protocol';

async function main(): Promise<void> {
  const settings = settingsFromEnv();
  const app = createApp();
  const stops: Array<() => Promise<unknown>> = [];
  let sampleId = '1';
  const tracer = settings.tracingRatio === undefined ? undefined : await startTracing(settings.tracingRatio, stops);
  app.observeCall = observeServiceCalls(tracer, undefined);

  if (settings.store === 'mongo') {
    // The driver loads only for this store, as in an application that picks its store at start-up.
    const { MongoClient } = await import('mongodb');
    const mongo = await startEmbeddedMongo({ host: '127.0.0.1', port: 0 });
    const client = await MongoClient.connect(mongo.url);
    stops.push(
      () => mongo.stop(),
      () => client.close(),
    );
    const collection = client.db('bench').collection('messages');
    const inserted = await collection.insertMany(Array.from({ length: SEEDED_MESSAGES }, (_, i) => seedMessage(i)));
    sampleId = String(inserted.insertedIds[1]);
    const service = new DatabaseService({ Model: collection, paginate: PAGINATE });
    observeStoreCalls(service, { tracer }, { system: 'mongodb', collection: 'messages' });
    app.use('messages', service);
  } else {
    const service = new MemoryService({ paginate: PAGINATE });
    for (let i = 0; i < SEEDED_MESSAGES; i++) await service.create(seedMessage(i));
    observeStoreCalls(service, { tracer }, { system: 'memory', collection: 'messages' });
    app.use('messages', service);
  }

  if (settings.auth) {
    const jwtSettings = createJwtSettings({ secret: settings.secret });
    const users = new MemoryService();
    await users.create(BENCH_USER);
    app.use('users', users);
    const authentication = new AuthenticationService({
      strategies: [new JwtAuthenticationStrategy({ settings: jwtSettings, users: () => app.service('users') })],
      tokenIssuer: new JsonWebTokenIssuer(jwtSettings),
    });
    app.use('authentication', authentication, { methods: ['create', 'remove'] });
    app.service('messages').hooks({ around: { all: [authenticate('jwt')] } });
    if (settings.policy) {
      const idField = settings.store === 'mongo' ? '_id' : 'id';
      const views = new PolicyViews({
        path: 'messages',
        policy: BENCH_MESSAGES_POLICY,
        rolesField: 'roles',
        idField,
        hiddenFields: [],
      });
      const layers = [policyView(views), policyScope(views)];
      app.service('messages').hooks({ around: Object.fromEntries(BENCH_POLICY_METHODS.map((m) => [m, layers])) });
    }
  }

  await app.setup();
  const server = createServer(createHttpAdapter(app, { tracer }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  stops.unshift(() => new Promise((resolve) => server.close(resolve)));
  const { port } = server.address() as AddressInfo;
  serveUntilStopped({ type: 'ready', port, sampleId }, async () => {
    server.closeAllConnections();
    for (const stop of stops) await stop();
  });
}

/** The tracer and its OTLP sink (stopped after the server: the tracer's last export still lands). */
async function startTracing(ratio: number, stops: Array<() => Promise<unknown>>): Promise<OpenTelemetryTracer> {
  // Loaded only when traced, as the composition loads it (`composition/telemetry.ts`): a server
  // with tracing off does not carry the OpenTelemetry SDK in its memory.
  const { OpenTelemetryTracer: Tracer } =
    require('../../src/adapters/opentelemetry') as typeof import('../../src/adapters/opentelemetry');
  const sink = await startOtlpSink();
  const tracer = new Tracer(
    {
      serviceName: 'bench',
      tracesUrl: sink.tracesUrl,
      protocol: 'http/protobuf',
      sampler: 'parentbased_traceidratio',
      samplerRatio: ratio,
      scheduleDelayMs: 5000,
    },
    '0.0.0',
  );
  stops.push(
    () => tracer.shutdown(),
    () => sink.stop(),
  );
  return tracer;
}

main().catch(reportFailure);
