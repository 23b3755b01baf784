import 'reflect-metadata';
import { Writable } from 'node:stream';
import pino from 'pino';
import { listenHttp, type ListeningHttpServer } from '../../../src/adapters/http';
import { composeApplication, type ComposedApplication } from '../../../src/composition-root';
import { loadConfig } from '../../../src/composition/load-config';
import { signUpAndLogIn } from '../../helpers/accounts';
import { TEST_SECRET } from '../../helpers/app-server';
import { killChildren, spawnTs } from '../../helpers/child-process';
import { call } from '../../helpers/http';
import { RawSocketCaller } from '../../helpers/raw-socket-caller';
import { signedInSocket, type SignedInSocket } from '../../helpers/signed-in-socket';
import { pause, waitFor } from '../../helpers/socket-clients';

const FRAMES = 20_000;
const LIMIT = 32; // the default of SOCKET_MAX_CALLS_IN_FLIGHT
const FLOODING_AFTER = 256; // refusals within the window before a connection is cut off (the transport's default)

/** The real composition with the socket transport, its log lines kept. */
async function start(env: Record<string, string>): Promise<{
  composed: ComposedApplication;
  http: ListeningHttpServer;
  url: string;
  log: Array<{ level: number; msg: string }>;
}> {
  const log: Array<{ level: number; msg: string }> = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      log.push(JSON.parse(String(chunk)));
      done();
    },
  });
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: ':memory:',
    AUTH_SECRET: TEST_SECRET,
    PASSWORD_HASH_COST: '10',
    ...env,
  });
  const composed = await composeApplication(config, {
    authentication: { rateLimit: false },
    logger: pino({ level: 'warn' }, sink),
  });
  const http = await listenHttp(composed.http);
  composed.realtime.attach(http.server);
  return { composed, http, url: http.url, log };
}

/** A service whose calls wait until released: what is running at once is what the transport let in. */
function heldCalls() {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const counts = { running: 0, most: 0, started: 0 };
  return {
    counts,
    release: () => release(),
    service: {
      async find() {
        counts.started++;
        counts.most = Math.max(counts.most, ++counts.running);
        await gate;
        counts.running--;
        return [];
      },
    },
  };
}

/**
 * Sequential `/health` requests until `done()` holds (at least 20, at most 20 s): their latencies
 * in ms, and the ones that failed.
 */
async function probeHealth(url: string, done: () => boolean): Promise<{ latencies: number[]; failures: string[] }> {
  const latencies: number[] = [];
  const failures: string[] = [];
  const deadline = Date.now() + 20_000;
  while ((!done() || latencies.length < 20) && Date.now() < deadline) {
    const started = performance.now();
    try {
      const response = await fetch(`${url}/health`, { signal: AbortSignal.timeout(10_000) });
      await response.text();
      if (response.status !== 200) failures.push(`status ${response.status}`);
    } catch (error) {
      failures.push(String((error as Error).cause ?? error));
    }
    latencies.push(performance.now() - started);
    await pause(5);
  }
  return { latencies, failures };
}

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil((p / 100) * values.length) - 1)];
const megabytes = (bytes: number) => Math.round(bytes / 1024 / 1024);

describe('calls in flight per socket connection', () => {
  let server: Awaited<ReturnType<typeof start>>;
  const open: { close(): void }[] = [];

  beforeAll(async () => {
    // The default store, where the finding was made (1.3-1.5 GB of growth).
    server = await start({ STORE: 'mongo' });
  }, 60_000);
  afterAll(async () => {
    for (const socket of open) socket.close();
    await killChildren();
    await server?.composed.realtime.close();
    await server?.http.close();
    await server?.composed.close();
  });

  async function bystander(): Promise<SignedInSocket> {
    const signedIn = await signedInSocket(server.url);
    open.push(signedIn.socket);
    return signedIn;
  }

  it(
    `runs at most ${LIMIT} calls of one socket at once, refuses the rest ` +
      'with 429 and cuts off a socket that keeps flooding',
    async () => {
      const held = heldCalls();
      server.composed.app.use('held-calls', held.service);
      const other = await bystander();
      const flooder = await RawSocketCaller.connect(server.url, (await signUpAndLogIn(server.url)).token);
      open.push(flooder);

      const sent = flooder.flood(FRAMES, 'find', 'held-calls', {});
      await waitFor(() => !flooder.open, 'the flooding socket to be cut off', 15_000).catch(() => undefined);
      const refused = flooder.errorsWithCode(429);
      console.log(
        `socket flood: ${sent} frames sent, ${held.counts.started} calls started (at most ${held.counts.most} ` +
          `at once), ${refused.length} refused with 429, disconnected: ${!flooder.open}`,
      );

      expect(sent).toBe(FRAMES);
      expect(held.counts.most).toBe(LIMIT);
      expect(held.counts.started).toBe(LIMIT);
      expect(refused).toHaveLength(FLOODING_AFTER);
      expect(refused[0]).toEqual({
        name: 'TooManyRequests',
        code: 429,
        className: 'too-many-requests',
        message: `Too many calls in flight on this connection (at most ${LIMIT}): wait for answers before sending more`,
      });
      expect(flooder.open).toBe(false);
      expect(
        server.log.filter(
          (line) => line.msg === 'disconnecting a real-time client that keeps sending calls over its limit',
        ),
      ).toHaveLength(1);

      // Another signed-in socket is served while the flooder's calls still hold their service.
      const [error, page] = await other.socket.call('find', 'messages', { $limit: 1 });
      expect(error).toBeNull();
      expect(page).toMatchObject({ limit: 1 });
      held.release();
      await waitFor(() => held.counts.running === 0, 'the held calls to finish');
    },
    60_000,
  );

  it('a socket within the limit gets every answer, and a burst just over it is refused, not cut off', async () => {
    const held = heldCalls();
    server.composed.app.use('held-burst', held.service);
    const client = await RawSocketCaller.connect(server.url, (await signUpAndLogIn(server.url)).token);
    open.push(client);
    client.flood(LIMIT + 10, 'find', 'held-burst', {});
    await waitFor(() => client.acks.size === 10 && held.counts.running === LIMIT, 'ten refusals and the rest running');
    held.release();
    await waitFor(() => client.acks.size === LIMIT + 10, 'every ack');
    expect(client.errorsWithCode(429)).toHaveLength(10);
    expect([...client.acks.values()].filter(([error]) => error === null)).toHaveLength(LIMIT);
    // The connection is still there, and once its calls are answered it may send as many again.
    expect(client.open).toBe(true);
    client.flood(LIMIT, 'find', 'held-burst', {});
    await waitFor(() => client.acks.size === 2 * LIMIT + 10, 'the second round of answers');
    expect(client.errorsWithCode(429)).toHaveLength(10);
  });

  it(
    `${FRAMES} find frames on messages from another process's signed-in socket: ` +
      'bounded memory, /health stays fast, others unaffected',
    async () => {
      const owner = await signUpAndLogIn(server.url);
      for (let index = 0; index < 10; index++) {
        expect(
          (
            await call(server.url, 'POST', '/messages', {
              token: owner.token,
              body: { text: `${index} ${'x'.repeat(900)}` },
            })
          ).status,
        ).toBe(201);
      }
      const other = await bystander();
      const flooderToken = (await signUpAndLogIn(server.url)).token;

      const rssBefore = process.memoryUsage().rss;
      let rssPeak = rssBefore;
      const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 20);
      // The flooder runs in its own process: the probes measure the server, not the writing of the frames.
      const child = spawnTs(
        'test/integration/realtime/support/flood-child.ts',
        [server.url, flooderToken, String(FRAMES), 'find', 'messages'],
        {},
      );
      let exitedAt: number | undefined;
      void child.exited.then(() => (exitedAt = Date.now()));
      await child.waitForOutput(/^connected$/m, 20_000);
      const { latencies, failures } = await probeHealth(
        server.url,
        () => exitedAt !== undefined && Date.now() - exitedAt > 300,
      );
      clearInterval(sampler);
      const rssAfter = process.memoryUsage().rss;
      expect(await child.exited).toEqual({ code: 0, signal: null });
      const result = JSON.parse(child.stdout.slice(child.stdout.indexOf('{'))) as {
        sent: number;
        writeMs: number;
        answered: number;
        refused: number;
        cutOff: boolean;
      };
      console.log(
        `messages flood: ${result.sent} frames written in ${result.writeMs} ` +
          `ms, ${result.answered} answered, ${result.refused} refused, cut off: ${result.cutOff}; ` +
          `RSS ${megabytes(rssBefore)} MB before, ${megabytes(rssPeak)} MB peak, ${megabytes(rssAfter)} MB after; ` +
          `/health over ${latencies.length} probes: p50 ${percentile(latencies, 50).toFixed(1)} ms, ` +
          `p99 ${percentile(latencies, 99).toFixed(1)} ms, ${failures.length} ` +
          `failed ${failures.slice(0, 3).join('; ')}`,
      );

      expect(result.sent).toBe(FRAMES);
      expect(result.cutOff).toBe(true);
      expect(result.answered).toBeLessThanOrEqual(LIMIT);
      expect(result.refused).toBe(FLOODING_AFTER);
      // The finding: 1.3-1.5 GB of growth and /health at 2.2 s. Bounds with room for a loaded machine
      // (a p99 of 855 ms was seen with the load average at 7 on two cores; quiet, it is about 150 ms).
      expect(rssPeak - rssBefore).toBeLessThan(150 * 1024 * 1024);
      expect(failures).toEqual([]);
      expect(percentile(latencies, 99)).toBeLessThan(1_500);
      const [error, page] = await other.socket.call('find', 'messages', { $limit: 2 });
      expect(error).toBeNull();
      expect(page).toMatchObject({ limit: 2, data: [expect.anything(), expect.anything()] });
    },
    60_000,
  );
});
