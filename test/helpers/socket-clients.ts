import { feathers, type Application as FeathersApplication } from '@feathersjs/feathers';
import authenticationClient from '@feathersjs/authentication-client';
import socketioClient from '@feathersjs/socketio-client';
import { io, type Socket } from 'socket.io-client';
import { RESUME_POINT_EVENT } from '../../src/adapters/socketio/socket-transport';
import {
  authenticationClient as ourAuthenticationClient,
  createApp,
  socketio as ourSocketio,
  type Application,
  type AuthenticationClient,
} from '../../src/client';
import { PASSWORD, uniqueEmail } from './accounts';

export const MESSAGES_METHODS = ['find', 'get', 'create', 'update', 'patch', 'remove', 'markRead'];

/** A socket.io client on its own connection (WebSocket only unless `transports` says otherwise). */
export function connectSocket(
  url: string,
  options: { transports?: string[]; extraHeaders?: Record<string, string>; auth?: Record<string, unknown> } = {},
): Socket {
  return io(url, {
    transports: options.transports ?? ['websocket'],
    forceNew: true,
    reconnection: false,
    extraHeaders: options.extraHeaders,
    auth: options.auth,
  });
}

/**
 * Resolves once the socket's manager has reconnected and the socket is connected again: asked
 * before the connection is cut, so that neither event is missed.
 */
export function reconnected(socket: Socket): Promise<void> {
  return new Promise((resolve) =>
    socket.io.once('reconnect', () => (socket.connected ? resolve() : socket.once('connect', () => resolve()))),
  );
}

export interface StockClient {
  app: FeathersApplication<any>;
  socket: Socket;
  close(): void;
}

type Storage = { getItem(key: string): any; setItem(key: string, value: any): any; removeItem(key: string): any };

/** The stock Feathers v5 client: socketio-client + authentication-client, unchanged; `messages` declares markRead. */
export function stockClient(url: string, storage?: Storage): StockClient {
  return stockClientOn(connectSocket(url), storage);
}

/** The stock Feathers v5 client on a socket of the caller's (its own reconnection settings). */
export function stockClientOn(socket: Socket, storage?: Storage): StockClient {
  const app = feathers();
  const connection = socketioClient(socket);
  app.configure(connection);
  app.configure(authenticationClient(storage ? { storage } : {}));
  app.use('messages', connection.service('messages') as any, { methods: MESSAGES_METHODS as any });
  return { app, socket, close: () => void socket.close() };
}

/**
 * Our own client (`src/client`) on a socket of the caller's, with `messages` and the
 * authentication client: a new user signs up over it and logs in.
 */
export async function signedInOurClient(
  socket: Socket,
  options: { timeout?: number; emailPrefix?: string } = {},
): Promise<{
  app: Application;
  auth: AuthenticationClient;
  user: Record<string, any>;
  login: Record<string, any>;
  email: string;
}> {
  const connection = ourSocketio(socket, options.timeout === undefined ? {} : { timeout: options.timeout });
  const app: Application = createApp().configure(connection);
  app.use('messages', connection.service('messages'), { methods: MESSAGES_METHODS });
  const auth = ourAuthenticationClient();
  app.configure(auth.configure);
  const email = uniqueEmail(options.emailPrefix ?? 'ours');
  const user = await app.service('users').create({ email, password: PASSWORD });
  const login = await auth.authenticate({ strategy: 'local', email, password: PASSWORD });
  return { app, auth, user, login, email };
}

/** A plain socket.io client recording every event it receives (to prove what it must not get). */
export class RecordingSocket {
  readonly socket: Socket;
  readonly events: [string, any][] = [];

  constructor(url: string, options: Parameters<typeof connectSocket>[1] = {}) {
    this.socket = connectSocket(url, options);
    this.socket.onAny((name: string, data: unknown) => this.events.push([name, data]));
  }

  connected(): Promise<void> {
    if (this.socket.connected) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.socket.once('connect', () => resolve());
      this.socket.once('connect_error', reject);
    });
  }

  /** A call frame; resolves with the ack's arguments as sent (`[error]` or `[null, result]`). */
  call(method: string, ...args: unknown[]): Promise<unknown[]> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ack for ${method} within 10 s`)), 10_000);
      this.socket.emit(method, ...args, (...response: unknown[]) => {
        clearTimeout(timer);
        resolve(response);
      });
    });
  }

  /** Every event but the resume point (an offset the transport sends each new connection, no data). */
  dataEvents(): [string, any][] {
    return this.events.filter(([name]) => name !== RESUME_POINT_EVENT);
  }

  named(name: string): any[] {
    return this.events.filter(([event]) => event === name).map(([, data]) => data);
  }

  close(): void {
    this.socket.close();
  }
}

/** Polls `check` every 20 ms until it holds or `timeoutMs` passes (then throws with `what`). */
export async function waitFor(check: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
