import { startOtlpReceiver, type OtlpReceiver } from '../../helpers/otlp-receiver';
import { startApp, type RunningApp } from '../../helpers/app-server';
import { describeWithRedis, startRedis, type RedisProcess } from '../../helpers/redis-server';

const PRODUCER = 4;
const CONSUMER = 5;

const post = (url: string, path: string, body: unknown, token?: string) =>
  fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });

describeWithRedis('an event published on one instance and delivered on another (Redis)', () => {
  let redis: RedisProcess;
  let receiver: OtlpReceiver;
  let first: RunningApp;
  let second: RunningApp;

  beforeAll(async () => {
    redis = await startRedis();
    receiver = await startOtlpReceiver();
    const env = {
      STORE: 'memory',
      REDIS_URL: redis.url,
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_BSP_SCHEDULE_DELAY: '50',
    };
    first = await startApp({ ...env, OTEL_SERVICE_NAME: 'first' });
    second = await startApp({ ...env, OTEL_SERVICE_NAME: 'second' });
  }, 60_000);
  afterAll(async () => {
    await first?.close();
    await second?.close();
    await receiver?.close();
    await redis?.kill();
  });

  it('is traced: the publishing span is in the call’s trace, the delivering span links to it', async () => {
    expect(
      (await post(first.url, '/users', { email: 'bus@example.com', password: 'correct horse battery' })).status,
    ).toBe(201);
    const { accessToken } = (await (
      await post(first.url, '/authentication', {
        strategy: 'local',
        email: 'bus@example.com',
        password: 'correct horse battery',
      })
    ).json()) as { accessToken: string };
    // The instances subscribe in the background: repeat the call until the other one has delivered an event.
    const deadline = Date.now() + 10_000;
    const delivered = () =>
      receiver.spans.find(
        (span) =>
          span.service === 'second' && span.kind === CONSUMER && span.attributes['hexa.event'] === 'messages created',
      );
    while (!delivered()) {
      if (Date.now() > deadline) throw new Error('no delivery traced on the second instance');
      expect((await post(first.url, '/messages', { text: 'shared' }, accessToken)).status).toBe(201);
      await receiver
        .waitFor((spans) =>
          spans.some(
            (span) =>
              span.service === 'first' &&
              span.kind === PRODUCER &&
              span.attributes['hexa.event'] === 'messages created',
          ),
        )
        .catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const consumer = delivered()!;
    expect(consumer.links).toHaveLength(1);
    const [link] = consumer.links;
    const producer = receiver.spans.find((span) => span.spanId === link.spanId)!;
    expect(producer).toMatchObject({
      service: 'first',
      kind: PRODUCER,
      traceId: link.traceId,
      name: 'publish hexa-services:events',
    });
    expect(producer.attributes).toMatchObject({
      'messaging.system': 'redis',
      'messaging.destination.name': 'hexa-services:events',
    });
    // The producer is part of the POST /messages trace on the first instance.
    const root = receiver.spans.find((span) => span.traceId === producer.traceId && span.parentSpanId === '');
    expect(root).toMatchObject({ service: 'first', name: 'POST /messages' });
    // The delivery starts a trace of its own on the second instance.
    expect(consumer.traceId).not.toBe(producer.traceId);
  });
});
