import { Redis } from 'ioredis';
import { RedisEventBus } from '../../../src/adapters/redis';
import type { EventEnvelope } from '../../../src/ports/event-bus.port';
import { PASSWORD } from '../../helpers/accounts';
import { startApp, type RunningApp } from '../../helpers/app-server';
import { call } from '../../helpers/http';
import { startMongoTestServer, type MongoTestServer } from '../../helpers/mongo-test-server';
import { describeWithRedis, startRedis, type RedisProcess } from '../../helpers/redis-server';
import { signedInSocket, type SignedInSocket } from '../../helpers/signed-in-socket';
import { pause, RecordingSocket, waitFor } from '../../helpers/socket-clients';

/** Two instances of the application sharing one Redis (REDIS_URL), each with its own clients. */
describeWithRedis('scale-out through Redis', () => {
  let redis: RedisProcess;
  let database: MongoTestServer;
  let first: RunningApp;
  let second: RunningApp;
  let monitor: Redis;
  let feed: Redis;
  const traffic: string[] = [];
  let alice: SignedInSocket;
  let bob: SignedInSocket;

  beforeAll(async () => {
    redis = await startRedis();
    monitor = new Redis(redis.url, { retryStrategy: () => null });
    monitor.on('error', () => undefined);
    // Everything the instances send to Redis, command by command.
    feed = await monitor.monitor();
    feed.on('monitor', (_time: string, args: string[]) => traffic.push(args.join(' ')));
    // One database behind both instances, as in production.
    database = await startMongoTestServer();
    const env = { STORE: 'mongo', MONGODB_URL: database.url, REDIS_URL: redis.url };
    first = await startApp(env, { rateLimit: { maxFailuresPerEmail: 3, maxFailuresPerClient: 1000 } });
    second = await startApp(env, { rateLimit: { maxFailuresPerEmail: 3, maxFailuresPerClient: 1000 } });
    // Both instances must be reading the event log before the first event.
    await waitFor(
      () => traffic.filter((line) => line.startsWith('xread')).length >= 2,
      'both instances to read the event log',
      10_000,
    );
    alice = await signedInSocket(first.url);
    bob = await signedInSocket(second.url);
  }, 60_000);
  afterAll(async () => {
    alice?.socket.close();
    bob?.socket.close();
    // quit, not disconnect: ioredis' disconnect arms a force-close timer that would outlive the suite.
    await feed?.quit().catch(() => feed.disconnect());
    await monitor?.quit().catch(() => monitor.disconnect());
    await first?.close();
    await second?.close();
    await redis?.kill();
    await database?.close();
  });

  it('an event caused on one instance reaches the clients of the other exactly once', async () => {
    await alice.socket.call('create', 'messages', { text: 'from the first instance' }, {});
    await bob.socket.call('create', 'messages', { text: 'from the second instance' }, {});
    await waitFor(
      () => alice.socket.named('messages created').length === 2 && bob.socket.named('messages created').length === 2,
      'both messages on both instances',
    );
    await pause(300);
    for (const client of [alice, bob]) {
      expect(
        client.socket
          .named('messages created')
          .map((message) => message.text)
          .sort(),
      ).toEqual(['from the first instance', 'from the second instance']);
    }
    // A users event still reaches only that user's own connections, on any instance.
    await second.composed.app.service('users').patch(alice.user._id, { name: 'Alice' });
    await waitFor(() => alice.socket.named('users patched').length === 1, 'alice to hear her own users event');
    await pause(300);
    expect(bob.socket.named('users patched')).toEqual([]);
  });

  it('the Redis traffic carries no token, password, hash or header', async () => {
    const published = traffic.filter((line) => line.startsWith('xadd'));
    expect(published.length).toBeGreaterThanOrEqual(3);
    const all = traffic.join('\n');
    for (const secret of [alice.token, bob.token, PASSWORD]) expect(all).not.toContain(secret);
    expect(all).not.toMatch(/\$2[aby]\$\d\d\$|\$scrypt\$/);
    for (const word of ['password', 'authorization', 'accessToken', 'headers', 'user-agent', 'params'])
      expect(all.toLowerCase()).not.toContain(word.toLowerCase());
    const envelope = JSON.parse(published[0].slice(published[0].indexOf('{'))) as EventEnvelope;
    expect(Object.keys(envelope).sort()).toEqual(['data', 'event', 'path', 'routing']);
    expect(published[0].length).toBeLessThan(JSON.stringify(envelope.data).length + 300);
  });

  it('a long-polling session is known only to its instance (why polling needs sticky sessions)', async () => {
    const polling = new RecordingSocket(first.url, { transports: ['polling'] });
    try {
      await polling.connected();
      const sid = (polling.socket.io as unknown as { engine: { id: string } }).engine.id;
      const elsewhere = await fetch(`${second.url}/socket.io/?EIO=4&transport=polling&sid=${sid}`);
      expect(elsewhere.status).toBe(400);
      expect(await elsewhere.json()).toEqual({ code: 1, message: 'Session ID unknown' });
      // On its own instance the session works.
      expect((await polling.call('find', 'messages', {}))[0]).toMatchObject({ name: 'NotAuthenticated' });
    } finally {
      polling.close();
      await pause(300);
    }
  });

  it('failed logins count across instances', async () => {
    const attempt = (app: RunningApp) =>
      call(app.url, 'POST', '/authentication', {
        body: { strategy: 'local', email: alice.email, password: 'wrong password' },
      });
    expect((await attempt(first)).status).toBe(401);
    expect((await attempt(second)).status).toBe(401);
    expect((await attempt(first)).status).toBe(401);
    expect((await attempt(second)).status).toBe(429);
    const viaSocket = await bob.socket.call(
      'create',
      'authentication',
      { strategy: 'local', email: alice.email, password: PASSWORD },
      {},
    );
    expect(viaSocket[0]).toMatchObject({ name: 'TooManyRequests' });
  });

  it(
    'with Redis down local delivery and calls go on; once it is back, what was ' +
      'posted meanwhile reaches the other instance, once',
    async () => {
      await redis.kill();
      const before = bob.socket.named('messages created').length;
      const [error] = await alice.socket.call('create', 'messages', { text: 'during the outage' }, {});
      expect(error).toBeNull();
      await waitFor(
        () => alice.socket.named('messages created').some((message) => message.text === 'during the outage'),
        'local delivery during the outage',
      );
      // Logins go on too: the limiter counts in memory while Redis is away.
      const started = Date.now();
      const login = await call(second.url, 'POST', '/authentication', {
        body: { strategy: 'local', email: bob.email, password: PASSWORD },
      });
      expect(login.status).toBe(201);
      expect(Date.now() - started).toBeLessThan(3_000);
      await redis.restart();
      const deadline = Date.now() + 10_000;
      let delivered = false;
      for (let attempt = 0; !delivered && Date.now() < deadline; attempt++) {
        await alice.socket.call('create', 'messages', { text: `after the outage ${attempt}` }, {});
        await pause(250);
        delivered = bob.socket
          .named('messages created')
          .slice(before)
          .some((message) => String(message.text).startsWith('after the outage'));
      }
      expect(delivered).toBe(true);
      // Not dropped: it waited for Redis on its instance, and its own clients had it once, at once.
      await waitFor(
        () =>
          bob.socket
            .named('messages created')
            .slice(before)
            .some((message) => message.text === 'during the outage'),
        'the outage message on the other instance',
      );
      await pause(300);
      for (const client of [alice, bob])
        expect(
          client.socket.named('messages created').filter((message) => message.text === 'during the outage'),
        ).toHaveLength(1);
    },
    30_000,
  );
});

describeWithRedis('Redis event bus', () => {
  it('logs one line per outage, not one per event, and never throws from publish', async () => {
    const redis = await startRedis();
    const lines: string[] = [];
    const logger = {
      debug: () => undefined,
      info: (_o: unknown, msg?: string) => void lines.push(`info ${msg}`),
      warn: (_o: unknown, msg?: string) => void lines.push(`warn ${msg}`),
      error: (_o: unknown, msg?: string) => void lines.push(`error ${msg}`),
    };
    const bus = new RedisEventBus({ url: redis.url, logger });
    const received: EventEnvelope[] = [];
    bus.subscribe((envelope) => received.push(envelope));
    const envelope = (n: number): EventEnvelope => ({
      event: 'created',
      path: 'messages',
      data: { n },
      routing: { origin: 'test', service: 'messages' },
    });
    try {
      await waitFor(() => (bus.publish(envelope(0)), received.length > 0), 'the bus to connect', 10_000);
      await redis.kill();
      for (let n = 1; n <= 50; n++) bus.publish(envelope(n));
      await pause(1_500);
      expect(lines.filter((line) => line.startsWith('warn'))).toHaveLength(1);
      await redis.restart();
      await waitFor(() => lines.some((line) => line.startsWith('info')), 'the bus to report it is back', 10_000);
      const count = received.length;
      await waitFor(() => (bus.publish(envelope(99)), received.length > count), 'delivery after the outage', 10_000);
      expect(lines.filter((line) => line.startsWith('warn'))).toHaveLength(1);
      const circular: Record<string, unknown> = {};
      circular.self = circular;
      expect(() => bus.publish({ ...envelope(100), data: circular })).not.toThrow();
    } finally {
      await bus.close();
      await redis.kill();
    }
  }, 40_000);
});
