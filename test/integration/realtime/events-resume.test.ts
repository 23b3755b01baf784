import { io, type Socket } from 'socket.io-client';
import { signUpAndLogIn, type Account } from '../../helpers/accounts';
import { startApp, type RunningApp } from '../../helpers/app-server';
import { call } from '../../helpers/http';
import { reconnected, stockClientOn, waitFor } from '../../helpers/socket-clients';

const GAP_MS = 2_000;

/** A stock socket.io client that reconnects after exactly `delayMs`, recording the data of every `messages created`. */
function listener(url: string, delayMs = GAP_MS): { socket: Socket; texts: string[] } {
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

async function signIn(socket: Socket, account: Account): Promise<void> {
  if (!socket.connected) await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  const [error] = await new Promise<unknown[]>((resolve) =>
    socket.emit(
      'create',
      'authentication',
      { strategy: 'jwt', accessToken: account.token },
      {},
      (...answer: unknown[]) => resolve(answer),
    ),
  );
  expect(error).toBeNull();
}

/** Cuts the client's transport (as a lost network does) and resolves once it is connected again. */
async function dropAndReconnect(socket: Socket, duringGap: () => Promise<void>): Promise<void> {
  const back = reconnected(socket);
  socket.io.engine.close();
  await duringGap();
  await back;
}

/**
 * Events resume after a reconnect (socket.io's connection state recovery, with stock clients): a
 * client away for 2 s while 100 messages are posted gets all 100, in order, once, still signed in;
 * outside the window it is told it starts afresh (`socket.recovered === false`).
 */
describe('events resume after a reconnect', () => {
  let app: RunningApp;
  let author: Account;
  let reader: Account;

  beforeAll(async () => {
    app = await startApp({ STORE: 'memory', EVENTS_RESUME_WINDOW_MS: '5000' });
    author = await signUpAndLogIn(app.url);
    reader = await signUpAndLogIn(app.url);
  });
  afterAll(() => app.close());

  async function post(count: number, prefix: string): Promise<string[]> {
    const texts: string[] = [];
    for (let index = 0; index < count; index += 1) {
      const text = `${prefix} ${index}`;
      expect((await call(app.url, 'POST', '/messages', { token: author.token, body: { text } })).status).toBe(201);
      texts.push(text);
    }
    return texts;
  }

  it('gives a stock socket.io client the 100 events posted while it was away 2 s, in order, once', async () => {
    const { socket, texts } = listener(app.url);
    try {
      await signIn(socket, reader);
      const before = await post(3, 'before');
      await waitFor(() => texts.length === 3, 'the first three');
      let during: string[] = [];
      await dropAndReconnect(socket, async () => {
        during = await post(100, 'during');
      });
      expect(socket.recovered).toBe(true);
      const after = await post(2, 'after');
      await waitFor(() => texts.length === 105, 'every message', 5_000);
      expect(texts).toEqual([...before, ...during, ...after]);
    } finally {
      socket.close();
    }
  }, 30_000);

  it('resumes a client that had heard nothing yet', async () => {
    const { socket, texts } = listener(app.url);
    try {
      await signIn(socket, reader);
      let during: string[] = [];
      await dropAndReconnect(socket, async () => {
        during = await post(5, 'quiet');
      });
      expect(socket.recovered).toBe(true);
      await waitFor(() => texts.length === 5, 'the five');
      expect(texts).toEqual(during);
    } finally {
      socket.close();
    }
  }, 30_000);

  it('resumes the stock Feathers socket client without any code of its own', async () => {
    const { socket } = listener(app.url, 500);
    const client = stockClientOn(socket).app;
    try {
      await client.authenticate({ strategy: 'jwt', accessToken: reader.token });
      const heard: string[] = [];
      client.service('messages').on('created', (message: { text: string }) => heard.push(message.text));
      let during: string[] = [];
      await dropAndReconnect(socket, async () => {
        during = await post(20, 'feathers');
      });
      await waitFor(() => heard.length === 20, 'the twenty', 10_000);
      expect(heard).toEqual(during);
      expect(socket.recovered).toBe(true);
    } finally {
      socket.close();
    }
  }, 30_000);

  it('tells a client away longer than the window that it starts afresh', async () => {
    const { socket, texts } = listener(app.url, 6_000);
    try {
      await signIn(socket, reader);
      await dropAndReconnect(socket, async () => {
        await post(3, 'lost');
      });
      expect(socket.recovered).toBe(false);
      // Not a partial history: nothing of what it missed.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(texts).toEqual([]);
    } finally {
      socket.close();
    }
  }, 30_000);
});
