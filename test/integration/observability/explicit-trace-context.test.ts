import { context as otelContext, ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../../helpers/otlp-receiver';
import { BOTH_STORES, startApp, type RunningApp } from '../../helpers/app-server';

const SERVER = 2;

const send = (url: string, method: string, path: string, body?: unknown, token?: string) =>
  fetch(`${url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

describe.each(BOTH_STORES)(
  'the trace context travels with each call, not in an ambient context, on %s',
  (_store, env) => {
    let installs: jest.SpiedFunction<typeof otelContext.setGlobalContextManager>;
    let receiver: OtlpReceiver;
    let app: RunningApp;

    beforeAll(async () => {
      // Before the app is composed: its tracer is made then.
      installs = jest.spyOn(otelContext, 'setGlobalContextManager');
      receiver = await startOtlpReceiver();
      app = await startApp({
        ...env,
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_BSP_SCHEDULE_DELAY: '50',
        OTEL_SERVICE_NAME: 'explicit',
      });
    });
    afterAll(async () => {
      installs?.mockRestore();
      await app?.close();
      await receiver?.close();
    });

    /** The spans of the trace whose server span is named `name` (the latest such trace). */
    const traceOf = async (name: string, complete: (spans: ReceivedSpan[]) => boolean): Promise<ReceivedSpan[]> => {
      let traceId = '';
      const inTrace = (spans: ReceivedSpan[]) => spans.filter((span) => span.traceId === traceId);
      await receiver.waitFor((spans) => {
        traceId = [...spans].reverse().find((span) => span.kind === SERVER && span.name === name)?.traceId ?? '';
        return traceId !== '' && complete(inTrace(spans));
      });
      return inTrace(receiver.spans);
    };
    const named = (spans: ReceivedSpan[], name: string): ReceivedSpan[] => spans.filter((span) => span.name === name);
    const one = (spans: ReceivedSpan[], name: string): ReceivedSpan => {
      const found = named(spans, name);
      expect(found.map((span) => span.name)).toEqual([name]);
      return found[0];
    };

    it('installs no context manager, and inside a traced call the ambient context stays the empty root', async () => {
      const ambient: unknown[] = [];
      app.composed.app.service('users').hooks({
        before: {
          create: [
            async () => {
              await Promise.resolve();
              ambient.push(otelContext.active(), trace.getActiveSpan());
            },
          ],
        },
      });
      expect(
        (await send(app.url, 'POST', '/users', { email: 'ambient@example.com', password: 'correct horse battery' }))
          .status,
      ).toBe(201);
      expect(ambient).toHaveLength(2);
      expect(ambient[0]).toBe(ROOT_CONTEXT);
      expect(ambient[1]).toBeUndefined();
      expect(installs).not.toHaveBeenCalled();
      // Traced all the same: the call's span is the request's child.
      const spans = await traceOf('POST /users', (found) => found.some((span) => span.name === 'users.create'));
      expect(one(spans, 'users.create').parentSpanId).toBe(one(spans, 'POST /users').spanId);
    });

    it(
      'makes the internal calls a call makes (the login’s lookup and session, ' +
        'the token’s user, a relation’s records) its children',
      async () => {
        const credentials = { email: 'nested@example.com', password: 'correct horse battery' };
        expect((await send(app.url, 'POST', '/users', credentials)).status).toBe(201);
        const login = await send(app.url, 'POST', '/authentication', { strategy: 'local', ...credentials });
        expect(login.status).toBe(201);
        const { accessToken } = (await login.json()) as { accessToken: string };
        expect((await send(app.url, 'POST', '/messages', { text: 'with its author' }, accessToken)).status).toBe(201);
        const listed = await send(app.url, 'GET', '/messages', undefined, accessToken);
        expect(listed.status).toBe(200);
        expect(((await listed.json()) as { data: Array<{ user: unknown }> }).data[0].user).toMatchObject({
          _id: expect.anything(),
        });

        // The login: the local strategy's lookup of the user and the new session are children of
        // the authentication call.
        const loginTrace = await traceOf(
          'POST /authentication',
          (found) =>
            found.some((span) => span.name === 'find users') && found.some((span) => span.name === 'sessions.patch'),
        );
        const authenticationCall = one(loginTrace, 'authentication.create');
        const lookup = one(loginTrace, 'users.find');
        expect(lookup.parentSpanId).toBe(authenticationCall.spanId);
        expect(lookup.attributes['hexa.call.provider']).toBe('internal');
        expect(one(loginTrace, 'find users').parentSpanId).toBe(lookup.spanId);
        expect(one(loginTrace, 'sessions.create').parentSpanId).toBe(authenticationCall.spanId);
        expect(one(loginTrace, 'sessions.patch').parentSpanId).toBe(authenticationCall.spanId);

        // The read: the token's user (the authenticate hook) and the relation's users (an after
        // hook) under the call's span.
        const readTrace = await traceOf(
          'GET /messages',
          (found) =>
            found.some((span) => span.name === 'find users') && found.some((span) => span.name === 'get users'),
        );
        const server = one(readTrace, 'GET /messages');
        const call = one(readTrace, 'messages.find');
        expect(call.parentSpanId).toBe(server.spanId);
        expect(one(readTrace, 'find messages').parentSpanId).toBe(call.spanId);
        const tokenUser = one(readTrace, 'users.get');
        expect(tokenUser.parentSpanId).toBe(call.spanId);
        expect(one(readTrace, 'get users').parentSpanId).toBe(tokenUser.spanId);
        const related = one(readTrace, 'users.find');
        expect(related.parentSpanId).toBe(call.spanId);
        expect(one(readTrace, 'find users').parentSpanId).toBe(related.spanId);
        // One root: the request's server span.
        expect(readTrace.filter((span) => span.parentSpanId === '').map((span) => span.name)).toEqual([
          'GET /messages',
        ]);
      },
    );
  },
);
