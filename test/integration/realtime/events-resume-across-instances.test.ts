import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { io, type Socket } from 'socket.io-client';
import { signUpAndLogIn, type Account } from '../../helpers/accounts';
import { startApp, type RunningApp } from '../../helpers/app-server';
import { call } from '../../helpers/http';
import { startMongoTestServer, type MongoTestServer } from '../../helpers/mongo-test-server';
import { describeWithRedis, startRedis, type RedisProcess } from '../../helpers/redis-server';
import { startSwitchingProxy, type SwitchingProxy } from './support/switching-proxy';
import { reconnected, stockClientOn, waitFor } from '../../helpers/socket-clients';

const WINDOW_MS = 8_000;
const GAP_MS = 2_000;

/**
 * Events resume on another instance and after a restart (the shared event log in Redis Streams):
 * the client reaches the instances through a proxy standing for a load balancer, which is cut
 * and pointed elsewhere while messages are posted.
 */
describeWithRedis('events resume across instances (Redis)', () => {
  let redisDir: string;
  let redis: RedisProcess;
  let database: MongoTestServer;
  let first: RunningApp;
  let second: RunningApp;
  let proxy: SwitchingProxy;
  let author: Account;
  let reader: Account;
  let env: Record<string, string>;
  /** A client that stays connected to the second instance throughout: the order every instance delivers in. */
  let witness: { socket: Socket; texts: string[] };

  beforeAll(async () => {
    redisDir = await mkdtemp(path.join(tmpdir(), 'resume-redis-'));
    redis = await startRedis(redisDir);
    database = await startMongoTestServer();
    env = {
      STORE: 'mongo',
      MONGODB_URL: database.url,
      REDIS_URL: redis.url,
      EVENTS_RESUME_WINDOW_MS: String(WINDOW_MS),
    };
    first = await startApp(env);
    second = await startApp(env);
    proxy = await startSwitchingProxy(first.url);
    author = await signUpAndLogIn(first.url);
    reader = await signUpAndLogIn(first.url);
    witness = listener(500, second.url);
    await signIn(witness.socket);
  }, 60_000);
  afterAll(async () => {
    witness?.socket.close();
    await proxy?.close();
    await first?.close();
    await second?.close();
    await redis?.kill();
    await database?.close();
    if (redisDir) await rm(redisDir, { recursive: true, force: true });
  });

  /** A stock socket.io client (through the proxy unless `url` is given) that comes back after exactly `delayMs`. */
  function listener(delayMs = GAP_MS, url = proxy.url): { socket: Socket; texts: string[] } {
    const socket = io(url, {
      transports: ['websocket'],
      reconnectionDelay: delayMs,
      reconnectionDelayMax: delayMs,
      randomizationFactor: 0,
    });
    const texts: string[] = [];
    socket.on('messages created', (message: { text: string }) => texts.push(message.text));
    return { socket, texts };
  }

  async function signIn(socket: Socket): Promise<void> {
    if (!socket.connected) await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    const [error] = await new Promise<unknown[]>((resolve) =>
      socket.emit(
        'create',
        'authentication',
        { strategy: 'jwt', accessToken: reader.token },
        {},
        (...answer: unknown[]) => resolve(answer),
      ),
    );
    expect(error).toBeNull();
  }

  /** Posts `count` messages, alternating between the instances (or on `only`). */
  async function post(count: number, prefix: string, only?: RunningApp): Promise<string[]> {
    const texts: string[] = [];
    for (let index = 0; index < count; index += 1) {
      const text = `${prefix} ${index}`;
      const instance = only ?? (index % 2 === 0 ? first : second);
      expect((await call(instance.url, 'POST', '/messages', { token: author.token, body: { text } })).status).toBe(201);
      texts.push(text);
    }
    return texts;
  }

  /**
   * `heard` holds each of `expected` once, in the order the witness (connected throughout) heard
   * them: the log's order, which two instances' posts need not follow when Redis reads their
   * connections in another order than they wrote.
   */
  async function expectHeardAsWitness(heard: string[], expected: string[]): Promise<void> {
    const wanted = new Set(expected);
    await waitFor(
      () =>
        heard.length >= expected.length && witness.texts.filter((text) => wanted.has(text)).length === expected.length,
      'every message',
      15_000,
    ).catch((error: Error) => {
      throw new Error(
        `${error.message}: heard ${JSON.stringify(heard)}, the ` +
          `witness ${JSON.stringify(witness.texts.filter((text) => wanted.has(text)))}`,
      );
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect([...heard].sort()).toEqual([...expected].sort());
    expect(heard).toEqual(witness.texts.filter((text) => wanted.has(text)));
  }

  /**
   * Cuts the client's connection, points the proxy at `next`, runs `duringGap`, and resolves once
   * the client is back.
   */
  async function moveTo(socket: Socket, next: () => string, duringGap: () => Promise<void>): Promise<void> {
    const back = reconnected(socket);
    proxy.cutAll();
    await duringGap();
    proxy.switchTo(next());
    await back;
  }

  it(
    'gives a stock socket.io client that comes back to the other instance the 100 ' +
      'events posted meanwhile, in order, once, still signed in',
    async () => {
      proxy.switchTo(first.url);
      const { socket, texts } = listener();
      try {
        await signIn(socket);
        const before = await post(3, 'before');
        await waitFor(() => texts.length === 3, 'the first three');
        let during: string[] = [];
        await moveTo(
          socket,
          () => second.url,
          async () => {
            during = await post(100, 'during');
          },
        );
        expect(socket.recovered).toBe(true);
        const after = await post(2, 'after');
        await expectHeardAsWitness(texts, [...before, ...during, ...after]);
        // Still signed in on the second instance: its own user's private event reaches it.
        const patched = new Promise<unknown>((resolve) => socket.once('users patched', resolve));
        await second.composed.app.service('users').patch(reader.user._id, { name: 'Reader' });
        await expect(patched).resolves.toMatchObject({ name: 'Reader' });
      } finally {
        socket.close();
      }
    },
    40_000,
  );

  it('resumes the stock Feathers socket client on the other instance without any code of its own', async () => {
    proxy.switchTo(second.url);
    const { socket } = listener(500);
    const client = stockClientOn(socket).app;
    try {
      await client.authenticate({ strategy: 'jwt', accessToken: reader.token });
      const heard: string[] = [];
      client.service('messages').on('created', (message: { text: string }) => heard.push(message.text));
      let during: string[] = [];
      await moveTo(
        socket,
        () => first.url,
        async () => {
          during = await post(20, 'feathers');
        },
      );
      await expectHeardAsWitness(heard, during);
      expect(socket.recovered).toBe(true);
    } finally {
      socket.close();
    }
  }, 40_000);

  it('gives a client the 100 events posted while the instance it was on restarted, once, in order', async () => {
    proxy.switchTo(first.url);
    const { socket, texts } = listener();
    try {
      await signIn(socket);
      const back = reconnected(socket);
      // A deploy: the instance stops (its clients are cut, not told goodbye) and a new one starts in its place.
      await first.close();
      const during = await post(100, 'restart', second);
      first = await startApp(env);
      proxy.switchTo(first.url);
      await back;
      expect(socket.recovered).toBe(true);
      await expectHeardAsWitness(texts, during);
    } finally {
      socket.close();
    }
  }, 40_000);

  it('loses nothing for a resuming client across a restart of Redis (kept in its append-only file)', async () => {
    proxy.switchTo(second.url);
    const { socket, texts } = listener(4_000);
    try {
      await signIn(socket);
      const back = reconnected(socket);
      proxy.cutAll();
      const before = await post(4, 'before redis restart');
      await redis.kill();
      // Posted while Redis is down: delivered at once on its instance, written to the log when Redis is back.
      const down = await post(2, 'redis down', first);
      await redis.restart();
      await back;
      expect(socket.recovered).toBe(true);
      const after = await post(2, 'after redis restart');
      await expectHeardAsWitness(texts, [...before, ...down, ...after]);
    } finally {
      socket.close();
    }
  }, 40_000);

  it(
    'does not give a client again, on another instance, what its own ' +
      'instance delivered at once while Redis was down',
    async () => {
      proxy.switchTo(first.url);
      const { socket, texts } = listener();
      try {
        await signIn(socket);
        await redis.kill();
        const atOnce = await post(3, 'at once', first);
        await waitFor(() => texts.length === 3, 'the three, at once, while Redis is down');
        await redis.restart();
        // Written to the stream once Redis is back: the other instance delivers them then.
        await waitFor(
          () => atOnce.every((text) => witness.texts.includes(text)),
          'the three on the other instance',
          15_000,
        );
        let during: string[] = [];
        await moveTo(
          socket,
          () => second.url,
          async () => {
            during = await post(2, 'after the outage');
          },
        );
        expect(socket.recovered).toBe(true);
        await expectHeardAsWitness(texts, [...atOnce, ...during]);
      } finally {
        socket.close();
      }
    },
    40_000,
  );

  it('tells a client away longer than the window that it starts afresh, with nothing partial', async () => {
    proxy.switchTo(first.url);
    const { socket, texts } = listener(WINDOW_MS + 1_500);
    try {
      await signIn(socket);
      await moveTo(
        socket,
        () => second.url,
        async () => {
          await post(3, 'lost');
        },
      );
      expect(socket.recovered).toBe(false);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(texts).toEqual([]);
    } finally {
      socket.close();
    }
  }, 40_000);
});
