import { createJwtSettings, signServiceCredential } from '../../../src';
import type { HookContext } from '../../../src/application/hooks/hook-context';
import { SERVICES } from '../../../src/application/services/service-list';
import { credentialScopes } from '../../../src/composition/credential-scopes';
import { RawSocketCaller } from '../../helpers/raw-socket-caller';
import { waitFor } from '../../helpers/socket-clients';
import { account, SECRET_A, SECRET_B, serversOnOneDatabase, stop, type Running } from '../../helpers/bound-servers';

const CALLS = 2_000;
const POOL = 64; // the default of REMOTE_POOL_SIZE
const UNAVAILABLE = {
  name: 'Unavailable',
  message: "The 'messages' service is unavailable",
  code: 503,
  className: 'unavailable',
};

/**
 * Server A's side of the link: the TCP connections that carried HTTP requests (at once and in
 * all; B's event subscription is a WebSocket of its own, not one of the pool's), and the
 * `messages.find` calls it is running.
 */
function watchServerA(a: Running) {
  const seen = { connections: 0, open: 0, mostOpen: 0, requests: 0, finds: 0, mostFinds: 0 };
  let gate: Promise<void> | undefined;
  let release = () => undefined as void;
  const carriedRequests = new WeakSet<object>();
  a.http.server.on('request', (request) => {
    seen.requests++;
    const socket = request.socket;
    if (carriedRequests.has(socket)) return;
    carriedRequests.add(socket);
    seen.connections++;
    seen.mostOpen = Math.max(seen.mostOpen, ++seen.open);
    socket.once('close', () => seen.open--);
  });
  // An app hook runs before every service hook: it sees each call that reached A, and can hold it.
  a.composed.app.hooks({
    around: {
      find: [
        async (context: HookContext, next: () => Promise<void>) => {
          if (context.path !== 'messages') return next();
          seen.mostFinds = Math.max(seen.mostFinds, ++seen.finds);
          try {
            await gate;
            await next();
          } finally {
            seen.finds--;
          }
        },
      ],
    },
  });
  return {
    seen,
    reset: () => Object.assign(seen, { connections: 0, mostOpen: seen.open, requests: 0, mostFinds: 0 }),
    hold: () => {
      gate = new Promise<void>((resolve) => (release = resolve));
    },
    release: () => {
      release();
      gate = undefined;
    },
  };
}

const { start } = serversOnOneDatabase();
let users = 0;

describe('a remote binding reaches its server through a bounded keep-alive pool', () => {
  let serverA: Running;
  let watch: ReturnType<typeof watchServerA>;
  const running: Running[] = [];
  const sockets: RawSocketCaller[] = [];

  /**
   * B with `messages` bound to A through A's credential for B, and sockets; one socket of B may
   * send every call at once.
   */
  async function startB(env: Record<string, string>): Promise<Running> {
    const { credential } = signServiceCredential(
      createJwtSettings({ secret: SECRET_A }),
      'server-b',
      credentialScopes(SERVICES, 'messages'),
    );
    const b = await start({
      AUTH_SECRET: SECRET_B,
      MESSAGES_REMOTE_URL: serverA.url,
      MESSAGES_REMOTE_TOKEN: credential,
      SOCKET_MAX_CALLS_IN_FLIGHT: String(CALLS),
      ...env,
    });
    b.composed.realtime.attach(b.http.server);
    running.push(b);
    return b;
  }

  beforeAll(async () => {
    serverA = await start({ AUTH_SECRET: SECRET_A });
    // Sockets too: each B subscribes to A's messages events over one socket of its own.
    serverA.composed.realtime.attach(serverA.http.server);
    watch = watchServerA(serverA);
  }, 60_000);
  afterAll(async () => {
    watch?.release();
    for (const socket of sockets) socket.close();
    for (const server of running.reverse()) await stop(server);
    await stop(serverA);
  });

  /** A user signed up and signed in on B (so also a user of A: they share the database), on a raw socket of B. */
  async function userSocketOn(b: Running): Promise<RawSocketCaller> {
    const socket = await RawSocketCaller.connect(b.url, (await account(b.url, `pool-${users++}@example.com`)).token);
    sockets.push(socket);
    return socket;
  }

  it(`${CALLS} concurrent calls through B reach A over at most ${POOL} connections, kept alive`, async () => {
    const serverB = await startB({ REMOTE_QUEUE_TIMEOUT_MS: '60000', REMOTE_QUEUE_LIMIT: String(CALLS) });
    const socket = await userSocketOn(serverB);
    watch.reset();
    const started = Date.now();
    socket.flood(CALLS, 'find', 'messages', { $limit: 1 });
    await waitFor(() => socket.acks.size === CALLS, `${CALLS} answers`, 60_000);
    const acks = [...socket.acks.values()];
    const outcomes = new Map<string, number>();
    for (const [error] of acks) {
      const kind = error === null ? 'result' : `${(error as { code?: number }).code}`;
      outcomes.set(kind, (outcomes.get(kind) ?? 0) + 1);
    }
    console.log(
      `${CALLS} calls through B in ${Date.now() - started} ms: ${JSON.stringify(Object.fromEntries(outcomes))}; ` +
        `A accepted ${watch.seen.connections} connections (at most ${watch.seen.mostOpen} open at once), ` +
        `answered ${watch.seen.requests} requests, ran at most ${watch.seen.mostFinds} finds at once`,
    );

    expect(watch.seen.requests).toBe(CALLS);
    expect(watch.seen.connections).toBeLessThanOrEqual(POOL);
    expect(watch.seen.mostOpen).toBeLessThanOrEqual(POOL);
    expect(acks.filter(([error]) => error !== null)).toEqual([]);
  }, 90_000);

  it(
    'a call that waits longer than REMOTE_QUEUE_TIMEOUT_MS for a ' + 'connection gets a 503 naming the service only',
    async () => {
      const serverB = await startB({ REMOTE_QUEUE_TIMEOUT_MS: '1000', REMOTE_QUEUE_LIMIT: String(CALLS) });
      const socket = await userSocketOn(serverB);
      watch.reset();
      watch.hold();
      const started = Date.now();
      socket.flood(CALLS, 'find', 'messages', {});
      // Every call beyond the pool waits its turn, then gives up; the ones holding a connection are still at A.
      await waitFor(() => socket.acks.size === CALLS - POOL, `${CALLS - POOL} calls to give up`, 30_000);
      const waited = Date.now() - started;
      const refused = [...socket.acks.values()].map(([error]) => error);
      expect(watch.seen.mostFinds).toBe(POOL);
      watch.release();
      await waitFor(() => socket.acks.size === CALLS, 'the held calls to be answered', 30_000);
      console.log(
        `held A: ${refused.length} calls got 503 after ${waited} ms, ${POOL} were answered ` +
          `once A went on; A accepted ${watch.seen.connections} connections`,
      );

      expect(refused.every((error) => JSON.stringify(error) === JSON.stringify(UNAVAILABLE))).toBe(true);
      expect(waited).toBeGreaterThanOrEqual(1000);
      const answeredLater = [...socket.acks.values()].filter(([error]) => error === null);
      expect(answeredLater).toHaveLength(POOL);
      expect(watch.seen.connections).toBeLessThanOrEqual(POOL);
    },
    90_000,
  );

  it('a call that finds REMOTE_QUEUE_LIMIT calls waiting for a connection gets a 503 at once', async () => {
    const queueLimit = 100;
    const serverB = await startB({ REMOTE_QUEUE_TIMEOUT_MS: '60000', REMOTE_QUEUE_LIMIT: String(queueLimit) });
    const socket = await userSocketOn(serverB);
    watch.reset();
    watch.hold();
    socket.flood(CALLS, 'find', 'messages', {});
    // The pool's calls are held at A and the queue is full: every other call is refused without waiting.
    await waitFor(
      () => socket.acks.size === CALLS - POOL - queueLimit,
      `${CALLS - POOL - queueLimit} refusals`,
      10_000,
    );
    const refused = [...socket.acks.values()].map(([error]) => error);
    expect(refused.every((error) => JSON.stringify(error) === JSON.stringify(UNAVAILABLE))).toBe(true);
    expect(watch.seen.mostFinds).toBe(POOL);
    watch.release();
    await waitFor(() => socket.acks.size === CALLS, 'the held and queued calls to be answered', 30_000);
    expect([...socket.acks.values()].filter(([error]) => error === null)).toHaveLength(POOL + queueLimit);
  }, 90_000);
});
