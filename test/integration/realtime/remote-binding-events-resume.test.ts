import 'reflect-metadata';
import { io, type Socket } from 'socket.io-client';
import { createJwtSettings, signServiceCredential } from '../../../src';
import { SERVICES } from '../../../src/application/services/service-list';
import { credentialScopes } from '../../../src/composition/credential-scopes';
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
import { describeWithRedis, startRedis, type RedisProcess } from '../../helpers/redis-server';
import { startSwitchingProxy, type SwitchingProxy } from './support/switching-proxy';
import { reconnected, waitFor } from '../../helpers/socket-clients';

/**
 * Two instances of B (one Redis) with `messages` bound to A: each hears A's events, and one of
 * them puts each into B's event log, so that every client of B hears it once and a client that
 * comes back to the other instance of B gets what A published while it was away.
 */
describeWithRedis("a remote binding's events in the event log of a scaled-out server", () => {
  const servers = serversOnOneDatabase();
  let redis: RedisProcess;
  let serverA: Running;
  let firstB: Running;
  let secondB: Running;
  let proxy: SwitchingProxy;
  const sockets: Socket[] = [];

  async function start(env: Record<string, string>): Promise<Running> {
    const running = await servers.start({ ...env, EVENTS_RESUME_WINDOW_MS: '10000' });
    running.composed.realtime.attach(running.http.server);
    return running;
  }

  beforeAll(async () => {
    redis = await startRedis();
    serverA = await start({ AUTH_SECRET: SECRET_A });
    const credential = signServiceCredential(
      createJwtSettings({ secret: SECRET_A }),
      'server-b',
      credentialScopes(SERVICES, 'messages'),
    ).credential;
    const envB = {
      AUTH_SECRET: SECRET_B,
      REDIS_URL: redis.url,
      MESSAGES_REMOTE_URL: serverA.url,
      MESSAGES_REMOTE_TOKEN: credential,
    };
    firstB = await start(envB);
    secondB = await start(envB);
    proxy = await startSwitchingProxy(firstB.url);
  }, 60_000);
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await proxy?.close();
    for (const server of [secondB, firstB, serverA]) {
      await server?.composed.realtime.close();
      await stop(server);
    }
    await redis?.kill();
  });

  function listener(url: string, token: string): { socket: Socket; texts: string[]; signedIn: Promise<void> } {
    const socket = io(url, {
      transports: ['websocket'],
      reconnectionDelay: 1_500,
      reconnectionDelayMax: 1_500,
      randomizationFactor: 0,
    });
    sockets.push(socket);
    const texts: string[] = [];
    socket.on('messages created', (message: { text: string }) => texts.push(message.text));
    const signedIn = new Promise<void>((resolve, reject) =>
      socket.once('connect', () => {
        socket.emit('create', 'authentication', { strategy: 'jwt', accessToken: token }, {}, (error: unknown) =>
          error ? reject(new Error(JSON.stringify(error))) : resolve(),
        );
      }),
    );
    return { socket, texts, signedIn };
  }

  it(
    'gives a client that comes back to the other instance of B what A published ' +
      'meanwhile, once, in the order every client of B heard it',
    async () => {
      const author = await account(serverA.url, `author-${Date.now()}@example.com`);
      const readerEmail = `reader-${Date.now()}@example.com`;
      await account(serverA.url, readerEmail);
      const readerOnB = (
        await call(firstB.url, 'POST', '/authentication', {
          body: { strategy: 'local', email: readerEmail, password: PASSWORD },
        })
      ).body.accessToken as string;
      const witness = listener(secondB.url, readerOnB);
      const moving = listener(proxy.url, readerOnB);
      await Promise.all([witness.signedIn, moving.signedIn]);
      const post = async (text: string) =>
        expect((await call(serverA.url, 'POST', '/messages', { token: author.token, body: { text } })).status).toBe(
          201,
        );
      // B's subscriptions to A connect in the background: posted until both clients hear A.
      const heardByBoth = (text: string) => witness.texts.includes(text) && moving.texts.includes(text);
      for (
        let attempt = 0;
        attempt < 40 && !witness.texts.some((text) => text.startsWith('warm-up') && heardByBoth(text));
        attempt += 1
      ) {
        await post(`warm-up ${attempt}`);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      const back = reconnected(moving.socket);
      proxy.cutAll();
      const during: string[] = [];
      for (let index = 0; index < 10; index += 1) {
        during.push(`from A ${index}`);
        await post(`from A ${index}`);
      }
      proxy.switchTo(secondB.url);
      await back;
      expect(moving.socket.recovered).toBe(true);
      const wanted = new Set(during);
      await waitFor(
        () =>
          moving.texts.filter((text) => wanted.has(text)).length === 10 &&
          witness.texts.filter((text) => wanted.has(text)).length === 10,
        'the ten on both',
        10_000,
      );
      await new Promise((resolve) => setTimeout(resolve, 300));
      // Each once (both instances of B heard each from A), and in the same order.
      expect(witness.texts.filter((text) => wanted.has(text))).toHaveLength(10);
      expect(moving.texts.filter((text) => wanted.has(text))).toEqual(witness.texts.filter((text) => wanted.has(text)));
    },
    60_000,
  );
});
