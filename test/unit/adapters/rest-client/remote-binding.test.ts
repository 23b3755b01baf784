import type { FetchFunction } from '../../../../src/adapters/rest-client';
import { bindRemote, type RemoteConnection } from '../../../../src/adapters/rest-client/remote-binding';
import type { ServiceDefinition } from '../../../../src/application/services/service-definition';
import type { LoggerPort } from '../../../../src/ports/logger.port';
import { TRACE_PARENT, type TraceParent, type TracerPort } from '../../../../src/ports/tracer.port';

const REMOTE = { url: 'http://remote.test', token: 'service-credential', readiness: true };
const MESSAGES = {
  path: 'messages',
  methods: ['find', 'get', 'create', 'patch', 'remove'],
} as unknown as ServiceDefinition;

interface Sent {
  url: string;
  headers: Record<string, string>;
}

/**
 * A connection whose fetch answers `answer(sent)` (a status and JSON body, or a thrown network
 * error) and records every request.
 */
function connection(answer: (sent: Sent) => { status: number; body?: unknown }) {
  const sent: Sent[] = [];
  const fetch: FetchFunction = async (url, init = {}) => {
    const request = {
      url,
      headers: Object.fromEntries(
        Object.entries(init.headers ?? {}).map(([name, value]) => [name.toLowerCase(), String(value)]),
      ),
    };
    sent.push(request);
    const { status, body } = answer(request);
    return {
      status,
      headers: { 'content-type': 'application/json' },
      text: async () => (body === undefined ? '' : JSON.stringify(body)),
    };
  };
  const close = jest.fn(async () => undefined);
  return { sent, connection: { fetch, close } satisfies RemoteConnection, close };
}

function recordingLogger() {
  const lines: Array<{ level: string; message: string }> = [];
  const log = (level: string) => (_obj: object | string, message?: string) =>
    lines.push({ level, message: message ?? '' });
  const logger: LoggerPort = { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') };
  return { lines, logger };
}

const unreachable = () => {
  throw Object.assign(new TypeError('fetch failed'), {
    cause: { code: 'ECONNREFUSED', address: '10.0.0.7', port: 4000 },
  });
};

describe('bindRemote (a service stored on another server)', () => {
  it("sends the service credential and X-On-Behalf-Of only with a signed-in user's calls", async () => {
    const remote = connection(() => ({ status: 200, body: [] }));
    const binding = bindRemote(MESSAGES, REMOTE, recordingLogger().logger, remote.connection);
    await binding.store.find!({
      user: { _id: 'u1' },
      query: { read: false },
      headers: { authorization: 'Bearer user-token' },
    });
    await binding.store.find!({ query: {}, headers: { authorization: 'Bearer user-token' } });
    expect(remote.sent[0].headers).toMatchObject({
      authorization: 'Bearer service-credential',
      'x-on-behalf-of': 'u1',
    });
    expect(remote.sent[0].url).toBe('http://remote.test/messages?read=false');
    // Anonymous (or internal): neither the credential nor the caller's own token leaves this server.
    expect(remote.sent[1].headers.authorization).toBeUndefined();
    expect(remote.sent[1].headers['x-on-behalf-of']).toBeUndefined();
  });

  it("passes the remote's answers about a request through as they are", async () => {
    const binding = bindRemote(
      MESSAGES,
      REMOTE,
      recordingLogger().logger,
      connection(() => ({
        status: 404,
        body: { name: 'NotFound', message: 'No record found for id x', code: 404, className: 'not-found' },
      })).connection,
    );
    await expect(binding.store.get!('x', {})).rejects.toMatchObject({
      name: 'NotFound',
      message: 'No record found for id x',
    });
  });

  it(
    'answers an outage with a 503 or 502 naming the service only, ' +
      'logging once per outage and once when it is back',
    async () => {
      let answer: (sent: Sent) => { status: number; body?: unknown } = unreachable;
      const { lines, logger } = recordingLogger();
      const binding = bindRemote(MESSAGES, REMOTE, logger, connection((sent) => answer(sent)).connection);
      const failure = binding.store.find!({}).catch((error: unknown) => error);
      expect(JSON.stringify(await failure)).toBe(
        JSON.stringify({
          name: 'Unavailable',
          message: "The 'messages' service is unavailable",
          code: 503,
          className: 'unavailable',
        }),
      );
      await binding.store.find!({}).catch(() => undefined);
      answer = () => ({
        status: 500,
        body: { name: 'GeneralError', message: 'boom at 10.0.0.7', code: 500, className: 'general-error' },
      });
      await expect(binding.store.find!({})).rejects.toMatchObject({
        name: 'BadGateway',
        message: "The 'messages' service failed",
      });
      answer = () => ({ status: 200, body: [] });
      await binding.store.find!({});
      expect(lines).toEqual([
        { level: 'warn', message: "remote service 'messages' is unreachable" },
        { level: 'info', message: "remote service 'messages' is reachable again" },
      ]);
    },
  );

  it('names the trace of the call that met the outage in its warning', async () => {
    const entries: object[] = [];
    const logger: LoggerPort = {
      debug: () => undefined,
      info: () => undefined,
      warn: (entry: object | string) => entries.push(entry as object),
      error: () => undefined,
    };
    const call = {} as TraceParent;
    const tracer: TracerPort = {
      inSpan: (_name, _start, parent, work) =>
        work({ recording: false, setAttributes: () => undefined, recordError: () => undefined }, parent ?? call),
      inject: () => undefined,
      logFields: (context): Record<string, string> =>
        context === call ? { trace_id: 'the-trace', span_id: 'the-call' } : {},
    };
    const binding = bindRemote(MESSAGES, REMOTE, logger, connection(unreachable).connection, { tracer });
    await expect(binding.store.find!({ [TRACE_PARENT]: call })).rejects.toMatchObject({ name: 'Unavailable' });
    expect(entries).toEqual([
      expect.objectContaining({ service: 'messages', trace_id: 'the-trace', span_id: 'the-call' }),
    ]);
  });

  it("takes a 401 to a call with the credential as a refusal of this server's credential: 503", async () => {
    const { lines, logger } = recordingLogger();
    const binding = bindRemote(
      MESSAGES,
      REMOTE,
      logger,
      connection(() => ({
        status: 401,
        body: { name: 'NotAuthenticated', message: 'invalid token', code: 401, className: 'not-authenticated' },
      })).connection,
    );
    await expect(binding.store.find!({ user: { _id: 'u1' } })).rejects.toMatchObject({ code: 503 });
    expect(lines[0].message).toBe("remote service 'messages' refuses this server's credential (<NAME>_REMOTE_TOKEN)");
  });

  describe('readiness', () => {
    it('accepts the 403 asking for a user to act for: the credential itself was accepted', async () => {
      const remote = connection(() => ({
        status: 403,
        body: {
          name: 'Forbidden',
          message: 'X-On-Behalf-Of required',
          code: 403,
          className: 'forbidden',
          data: { reason: 'on-behalf-of-required' },
        },
      }));
      const binding = bindRemote(MESSAGES, REMOTE, recordingLogger().logger, remote.connection);
      await expect(binding.check()).resolves.toBeUndefined();
      expect(remote.sent[0].headers.authorization).toBe('Bearer service-credential');
      expect(remote.sent[0].headers['x-on-behalf-of']).toBeUndefined();
    });

    it('fails with a 503 naming the service when the remote is unreachable or refuses the credential', async () => {
      const down = bindRemote(MESSAGES, REMOTE, recordingLogger().logger, connection(unreachable).connection);
      await expect(down.check()).rejects.toMatchObject({ code: 503, message: "The 'messages' service is unavailable" });
      const outsideScope = {
        name: 'Forbidden',
        message: 'not in scope',
        code: 403,
        className: 'forbidden',
        data: { reason: 'outside-scope' },
      };
      const refused = bindRemote(
        MESSAGES,
        REMOTE,
        recordingLogger().logger,
        connection(() => ({ status: 403, body: outsideScope })).connection,
      );
      await expect(refused.check()).rejects.toMatchObject({ code: 503 });
    });
  });

  it("closes the connection it was given, and reports the plan's readiness setting", async () => {
    const remote = connection(() => ({ status: 200, body: [] }));
    const binding = bindRemote(MESSAGES, { ...REMOTE, readiness: false }, recordingLogger().logger, remote.connection);
    expect(binding.readiness).toBe(false);
    await binding.close();
    expect(remote.close).toHaveBeenCalledTimes(1);
  });
});
