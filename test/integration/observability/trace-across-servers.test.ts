import 'reflect-metadata';
import { createJwtSettings, signServiceCredential } from '../../../src';
import { SERVICES } from '../../../src/application/services/service-list';
import { credentialScopes } from '../../../src/composition/credential-scopes';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../../helpers/otlp-receiver';
import {
  account,
  call,
  PASSWORD,
  SECRET_A,
  SECRET_B,
  serversOnOneDatabase,
  stop,
  type Running,
} from '../../helpers/bound-servers';

const { start } = serversOnOneDatabase();
const SERVER = 2;
const CLIENT = 3;

describe(
  'one trace from B’s request through the remote binding into A’s store ' +
    '(OTLP over http/json from B, http/protobuf from A)',
  () => {
    let receiver: OtlpReceiver;
    let serverA: Running | undefined;
    let serverB: Running | undefined;
    let credential: string;

    beforeAll(async () => {
      receiver = await startOtlpReceiver();
      const otel = { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_BSP_SCHEDULE_DELAY: '50' };
      serverA = await start({ AUTH_SECRET: SECRET_A, ...otel, OTEL_SERVICE_NAME: 'server-a' });
      credential = signServiceCredential(
        createJwtSettings({ secret: SECRET_A }),
        'server-b',
        credentialScopes(SERVICES, 'messages'),
      ).credential;
      serverB = await start({
        AUTH_SECRET: SECRET_B,
        MESSAGES_REMOTE_URL: serverA.url,
        MESSAGES_REMOTE_TOKEN: credential,
        ...otel,
        OTEL_SERVICE_NAME: 'server-b',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      });
    });
    afterAll(async () => {
      await stop(serverB);
      await stop(serverA);
      await receiver?.close();
    });

    it(
      'covers B’s server span, B’s call, B’s client span, A’s server span, A’s call and ' +
        'A’s store span, linked parent to child, with the real user',
      async () => {
        const email = 'traced@b.example';
        const user = await account(serverB!.url, email);
        const created = await call(serverB!.url, 'POST', '/messages', {
          token: user.token,
          body: { text: 'followed' },
        });
        expect(created.status).toBe(201);

        const isRoot = (span: ReceivedSpan) =>
          span.service === 'server-b' &&
          span.kind === SERVER &&
          span.name === 'POST /messages' &&
          span.parentSpanId === '';
        let traceId = '';
        const inTrace = (spans: ReceivedSpan[]) => spans.filter((span) => span.traceId === traceId);
        await receiver.waitFor((spans) => {
          traceId = [...spans].reverse().find(isRoot)?.traceId ?? '';
          return (
            traceId !== '' &&
            inTrace(spans).some((span) => span.service === 'server-a' && span.name === 'create messages')
          );
        });
        const trace = inTrace(receiver.spans);
        const one = (service: string, name: string, kind?: number) => {
          const found = trace.filter(
            (span) => span.service === service && span.name === name && (kind === undefined || span.kind === kind),
          );
          expect(found.map((span) => `${span.service} ${span.name}`)).toEqual([`${service} ${name}`]);
          return found[0];
        };
        const bServer = one('server-b', 'POST /messages', SERVER);
        const bCall = one('server-b', 'messages.create');
        const bClient = one('server-b', 'POST', CLIENT);
        const aServer = one('server-a', 'POST /messages', SERVER);
        const aCall = one('server-a', 'messages.create');
        const aStore = one('server-a', 'create messages');

        expect(bCall.parentSpanId).toBe(bServer.spanId);
        const ancestors = (span: ReceivedSpan): string[] => {
          const parent = trace.find((other) => other.spanId === span.parentSpanId);
          return parent ? [parent.spanId, ...ancestors(parent)] : [];
        };
        expect(ancestors(bClient)).toContain(bCall.spanId);
        expect(aServer.parentSpanId).toBe(bClient.spanId);
        expect(aCall.parentSpanId).toBe(aServer.spanId);
        expect(ancestors(aStore)).toContain(aCall.spanId);

        // The encodings the receiver read: B exports JSON, A protobuf (the default).
        expect(bServer.contentType).toMatch(/^application\/json/);
        expect(aServer.contentType).toBe('application/x-protobuf');

        expect(bServer.attributes).toMatchObject({
          'http.request.method': 'POST',
          'http.route': '/messages',
          'http.response.status_code': 201,
        });
        expect(aServer.attributes).toMatchObject({ 'http.route': '/messages', 'http.response.status_code': 201 });
        expect(bClient.attributes).toMatchObject({
          'http.request.method': 'POST',
          'server.address': '127.0.0.1',
          'url.full': `${serverA!.url}/messages`,
        });
        expect(aStore.attributes).toMatchObject({
          'db.system.name': 'mongodb',
          'db.collection.name': 'messages',
          'db.operation.name': 'create',
        });
        // The real user on both servers; on A, the server acting for them too.
        expect(bCall.attributes['enduser.id']).toBe(user.id);
        expect(aCall.attributes['enduser.id']).toBe(user.id);
        expect(aCall.attributes['hexa.acting_service']).toBe('server-b');
        expect(bCall.attributes['hexa.acting_service']).toBeUndefined();

        // No secret, e-mail or body in any attribute of any span received.
        const values = receiver.spans.flatMap((span) =>
          Object.entries(span.attributes).map(([key, value]) => `${key}=${String(value)}`),
        );
        expect(values.length).toBeGreaterThan(20);
        for (const secret of [user.token, credential, PASSWORD, email, 'followed', SECRET_A, SECRET_B]) {
          expect(values.filter((value) => value.includes(secret))).toEqual([]);
        }
        expect(values.filter((value) => /authorization|password|token|cookie/i.test(value.split('=')[0]))).toEqual([]);
      },
    );

    it('continues a caller’s trace (traceparent) and keeps a 4xx a normal answer', async () => {
      const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
      const missing = await call(serverA!.url, 'GET', '/messages/000000000000000000000000', {
        headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` },
      });
      expect(missing.status).toBe(401);
      const [server] = (
        await receiver.waitFor((spans) => spans.some((span) => span.traceId === traceId && span.kind === SERVER))
      ).filter((span) => span.traceId === traceId && span.kind === SERVER);
      expect(server).toMatchObject({
        service: 'server-a',
        name: 'GET /messages/:id',
        parentSpanId: '00f067aa0ba902b7',
      });
      expect(server.attributes).toMatchObject({
        'http.route': '/messages/:id',
        'http.response.status_code': 401,
        'url.path': '/messages/000000000000000000000000',
      });
    });
  },
);
