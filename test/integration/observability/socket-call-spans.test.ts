import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../../helpers/otlp-receiver';
import { BOTH_STORES, startApp, type RunningApp } from '../../helpers/app-server';
import { signedInSocket, type SignedInSocket } from '../../helpers/signed-in-socket';

const SERVER = 2;

describe.each(BOTH_STORES)('socket calls traced on %s', (_store, env) => {
  let receiver: OtlpReceiver;
  let app: RunningApp;
  let signedIn: SignedInSocket;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    app = await startApp({
      ...env,
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_BSP_SCHEDULE_DELAY: '50',
      OTEL_SERVICE_NAME: 'sockets',
    });
    signedIn = await signedInSocket(app.url);
  });
  afterAll(async () => {
    signedIn?.socket.close();
    await app?.close();
    await receiver?.close();
  });

  const spansOf = (traceId: string) => receiver.spans.filter((span) => span.traceId === traceId);
  const serverSpan = (spans: ReceivedSpan[], name: string) =>
    spans.find((span) => span.kind === SERVER && span.name === name);

  it('gives each call a server span over the service call and the store, with the user', async () => {
    const [error, created] = (await signedIn.socket.call('create', 'messages', { text: 'over the socket' }, {})) as [
      unknown,
      { _id: string },
    ];
    expect(error).toBeNull();
    await receiver.waitFor(
      (spans) =>
        serverSpan(spans, 'socket.io messages.create') !== undefined &&
        spans.some((span) => span.name === 'create messages'),
    );
    const server = serverSpan(receiver.spans, 'socket.io messages.create')!;
    expect(server.parentSpanId).toBe('');
    expect(server.attributes).toMatchObject({
      'network.protocol.name': 'socket.io',
      'hexa.service.path': 'messages',
      'hexa.service.method': 'create',
    });
    const trace = spansOf(server.traceId);
    const call = trace.find((span) => span.name === 'messages.create')!;
    expect(call.parentSpanId).toBe(server.spanId);
    expect(call.attributes).toMatchObject({
      'hexa.call.provider': 'socketio',
      'enduser.id': String(signedIn.user._id),
    });
    expect(trace.find((span) => span.name === 'create messages')).toBeDefined();
    expect(JSON.stringify(trace)).not.toContain(created._id);
  });

  it('continues the trace a client sends in $traceparent, which never reaches the store', async () => {
    const traceId = '0af7651916cd43dd8448eb211c80319c';
    const [error, page] = (await signedIn.socket.call('find', 'messages', {
      $limit: 1,
      $traceparent: `00-${traceId}-b7ad6b7169203331-01`,
      $tracestate: 'vendor=1',
    })) as [unknown, { data: unknown[] }];
    expect(error).toBeNull();
    expect(page.data).toHaveLength(1);
    await receiver.waitFor(
      () =>
        serverSpan(spansOf(traceId), 'socket.io messages.find') !== undefined &&
        spansOf(traceId).some((span) => span.name === 'find messages'),
    );
    expect(serverSpan(spansOf(traceId), 'socket.io messages.find')!.parentSpanId).toBe('b7ad6b7169203331');
  });
});

describe('a socket call with $traceparent to a server without tracing', () => {
  let app: RunningApp;
  let signedIn: SignedInSocket;
  beforeAll(async () => {
    app = await startApp({ STORE: 'memory' });
    signedIn = await signedInSocket(app.url);
  });
  afterAll(async () => {
    signedIn?.socket.close();
    await app?.close();
  });

  it('is answered as without it (the field is not a query operator)', async () => {
    const [error, page] = (await signedIn.socket.call('find', 'messages', {
      $limit: 1,
      $traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
    })) as [unknown, { total: number }];
    expect(error).toBeNull();
    expect(page.total).toBe(0);
  });
});
