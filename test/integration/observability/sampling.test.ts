import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../../helpers/otlp-receiver';
import { BOTH_STORES, startApp, type RunningApp } from '../../helpers/app-server';

const REMOTE_SPAN_ID = 'b7ad6b7169203331';

const signUp = (url: string, email: string, traceparent: string) =>
  fetch(`${url}/users`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', traceparent },
    body: JSON.stringify({ email, password: 'correct horse battery' }),
  });

describe.each(BOTH_STORES)('sampling one request in a hundred (parentbased_traceidratio) on %s', (_store, env) => {
  let receiver: OtlpReceiver;
  let app: RunningApp;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    app = await startApp({
      ...env,
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_BSP_SCHEDULE_DELAY: '50',
      OTEL_SERVICE_NAME: 'sampled',
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.01',
    });
  });
  afterAll(async () => {
    await app?.close();
    await receiver?.close();
  });

  const inTrace = (spans: ReceivedSpan[], traceId: string) => spans.filter((span) => span.traceId === traceId);

  it(
    'traces a request whose caller sampled it whole, under the caller’s ' +
      'span, and exports nothing of one its caller left out',
    async () => {
      const leftOut = '5b8efff798038103d269b633813fc60c';
      const sampled = '0af7651916cd43dd8448eb211c80319c';
      expect((await signUp(app.url, 'left-out@example.com', `00-${leftOut}-${REMOTE_SPAN_ID}-00`)).status).toBe(201);
      expect((await signUp(app.url, 'sampled@example.com', `00-${sampled}-${REMOTE_SPAN_ID}-01`)).status).toBe(201);

      const spans = inTrace(
        await receiver.waitFor((received) => inTrace(received, sampled).some((span) => span.name === 'create users')),
        sampled,
      );
      const server = spans.find((span) => span.name === 'POST /users')!;
      const call = spans.find((span) => span.name === 'users.create')!;
      expect(server.parentSpanId).toBe(REMOTE_SPAN_ID);
      expect(call.parentSpanId).toBe(server.spanId);
      expect(spans.find((span) => span.name === 'create users')!.parentSpanId).toBe(call.spanId);
      // Exported in the order they ended: what the left-out request could have made would be here by now.
      expect(inTrace(receiver.spans, leftOut)).toEqual([]);
    },
  );
});
