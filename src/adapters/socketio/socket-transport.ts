import type { Server as HttpServer } from 'node:http';
import type { Server, Socket } from 'socket.io';
import type { Application } from '../../application/app/application';
import {
  bindTransport,
  type ConnectionTransport,
  type RealTimeConnection,
} from '../../application/channels/connection';
import type { RealTimeHub } from '../../application/channels/real-time-hub';
import { bearerToken } from '../../application/transport/bearer-token';
import { errorAnswer } from '../../application/transport/error-answer';
import { currentRoutes } from '../../application/transport/route-table';
import { answerOf } from '../../application/transport/transport-call';
import { TooManyRequests } from '../../domain/errors';
import { bufferedBytes } from './buffered-bytes';
import { CallBudget, type Admission } from './call-budget';
import { CredentialSubscriptions, handshakeCredential, subscribedServices } from './credential-subscriptions';
import { runSocketCall, SOCKET_PROVIDER } from './socket-call';
import { SOCKET_DEFAULTS, type SocketTransportOptions } from './socket-transport-options';
import { LocalSessionKeeper } from './local-resume';
import { resumableAdapter } from './resumable-adapter';
import { ResumeWindow } from './resume-window';
import { noteSent, SharedSessionKeeper } from './shared-resume';

/** The event a new connection first gets when events resume: the offset it starts from (its only argument). */
export const RESUME_POINT_EVENT = 'resume-point';

export interface SocketTransport {
  readonly io: Server;
  /** What is kept for clients that reconnect (undefined when events do not resume). */
  readonly resumeWindow?: ResumeWindow;
  /** Disconnects every socket and stops the engine; the HTTP server itself stays up. */
  close(): Promise<void>;
}

type Ack = (...response: unknown[]) => void;

/**
 * The socket.io transport on an HTTP server, speaking the Feathers v5 socket protocol: a call is
 * an event named after the method with the path and positional arguments and an ack
 * `[error]` or `[null, result]`; service events arrive as `"<path> <event>"`. The app must have
 * channels configured (`app.configure(channels())`): they decide who receives which event.
 */
export function attachSocketTransport(
  app: Application,
  server: HttpServer,
  options: SocketTransportOptions,
): SocketTransport {
  const hub = app.realtime;
  if (!hub) throw new Error('The socket transport needs channels: app.configure(channels()) first');
  const { logger } = options;
  const maxBufferedBytes = options.maxBufferedBytes ?? SOCKET_DEFAULTS.maxBufferedBytes;
  // socket.io loads with the first transport, not with the package (an app without sockets never pays for it).
  const { Server: SocketServer } = require('socket.io') as typeof import('socket.io');
  const sockets = new WeakMap<RealTimeConnection, Socket>();
  const resumes = options.resume !== undefined && options.resume.windowMs > 0;
  // With a shared event log, dropped connections wait in the shared store and resume on any instance; else in this
  // one's window.
  const shared = resumes && options.sharedResume ? options.sharedResume : undefined;
  const resume = resumes && !shared ? new ResumeWindow(options.resume!) : undefined;
  const connectionsBySocketId = new Map<string, RealTimeConnection>();
  /** The connection is gone for good: out of its channels, its history dropped. */
  const endConnection = (connection: RealTimeConnection, socketId: string): void => {
    connectionsBySocketId.delete(socketId);
    resume?.forget(socketId);
    hub.disconnect(connection);
  };
  const addressOf = (socket: Socket): string => options.clientAddress?.(socket.request) ?? socket.handshake.address;
  /** The params of what a handshake does: its login, or its subscription. */
  const handshakeParams = (socket: Socket) => ({
    provider: SOCKET_PROVIDER,
    headers: socket.handshake.headers,
    ip: addressOf(socket),
  });
  const subscriptions = new CredentialSubscriptions({
    app,
    authenticationPath: hub.authenticationPath,
    logger,
    production: options.production === true,
    recheckMs: options.subscriptionRecheckMs ?? SOCKET_DEFAULTS.subscriptionRecheckMs,
    paramsOf: handshakeParams,
  });
  const localKeeper = resume
    ? new LocalSessionKeeper(resume, {
        connectionOf: (socketId) => connectionsBySocketId.get(socketId),
        end: endConnection,
      })
    : undefined;
  const sharedKeeper = shared
    ? new SharedSessionKeeper({
        shared,
        hub,
        windowMs: options.resume!.windowMs,
        provider: SOCKET_PROVIDER,
        logger,
        connectionOf: (socketId) => connectionsBySocketId.get(socketId),
        credentialsOf: (socketId) => {
          const connection = connectionsBySocketId.get(socketId);
          const socket = connection && sockets.get(connection);
          const serviceCredential = socket && handshakeCredential(socket);
          return typeof serviceCredential === 'string'
            ? { serviceCredential, subscribedTo: subscribedServices(socket!) }
            : undefined;
        },
        reinstate: {
          login: (accessToken) =>
            app
              .service(hub.authenticationPath)
              .create({ strategy: 'jwt', accessToken }, { provider: SOCKET_PROVIDER }) as Promise<Record<string, any>>,
          subscription: (credential, services) =>
            subscriptions.servicesFor(credential, services, { provider: SOCKET_PROVIDER }),
        },
      })
    : undefined;
  const keeper = sharedKeeper ?? localKeeper;
  const io = new SocketServer(server, {
    path: options.path ?? SOCKET_DEFAULTS.path,
    serveClient: false,
    maxHttpBufferSize: options.maxMessageBytes ?? SOCKET_DEFAULTS.maxMessageBytes,
    cors: options.corsOrigins && options.corsOrigins.length > 0 ? { origin: options.corsOrigins } : undefined,
    ...(keeper
      ? {
          connectionStateRecovery: { maxDisconnectionDuration: options.resume!.windowMs, skipMiddlewares: false },
          adapter: resumableAdapter(keeper),
        }
      : {}),
  });
  const callSettings = { app, routes: currentRoutes(app), tracer: options.tracer };
  const callLimits = {
    maxCallsInFlight: options.maxCallsInFlight ?? SOCKET_DEFAULTS.maxCallsInFlight,
    maxRefusedCalls: options.maxRefusedCalls ?? SOCKET_DEFAULTS.maxRefusedCalls,
    refusalWindowMs: options.refusalWindowMs ?? SOCKET_DEFAULTS.refusalWindowMs,
  };
  const tooManyCalls = new TooManyRequests(
    `Too many calls in flight on this connection (at most ${callLimits.maxCallsInFlight}): wait for answers before ` +
      `sending more`,
  ).toJSON();

  const graceMs = options.slowConsumerGraceMs ?? SOCKET_DEFAULTS.slowConsumerGraceMs;
  const suspects = new WeakSet<Socket>();
  /**
   * A client that does not read what it is sent is cut off before it holds the server's memory.
   * A burst written in one tick is over the limit for everyone until the event loop turns, so a
   * socket over it is looked at again after a grace period, and only then disconnected.
   */
  const checkBacklog = (socket: Socket): void => {
    if (!socket.connected || suspects.has(socket) || bufferedBytes(socket) <= maxBufferedBytes) return;
    suspects.add(socket);
    const timer = setTimeout(() => {
      suspects.delete(socket);
      const bytes = bufferedBytes(socket);
      if (!socket.connected || bytes <= maxBufferedBytes) return;
      logger.warn(
        { socket: socket.id, bufferedBytes: bytes, limit: maxBufferedBytes },
        'disconnecting a slow real-time client: unread data over the limit',
      );
      socket.disconnect(true);
    }, graceMs);
    timer.unref();
  };

  const transport: ConnectionTransport = {
    send(eventName, data, connections, position) {
      const recipients: Socket[] = [];
      const kept: string[] = [];
      for (const connection of connections) {
        const socket = sockets.get(connection);
        if (!socket) continue;
        // A dropped connection within the window gets the event later, from its history.
        if (resume) kept.push(socket.id);
        if (socket.connected) recipients.push(socket);
        if (shared && position !== undefined) noteSent(connection, position);
      }
      // Each event carries its offset last: the client sends back the last one it got when it reconnects.
      const args: unknown[] = [data];
      if (shared && position !== undefined) args.push(position);
      else if (resume && kept.length > 0) {
        const offset = resume.nextOffset();
        args.push(offset);
        resume.record([eventName, data, offset], kept, JSON.stringify(data)?.length ?? 0);
      }
      if (recipients.length === 0) return;
      // A broadcast encodes the packet once and writes it to every recipient.
      if (recipients.length === 1) recipients[0].emit(eventName, ...args);
      else io.to(recipients.map((socket) => socket.id)).emit(eventName, ...args);
      for (const socket of recipients) checkBacklog(socket);
    },
  };

  // A token in the handshake (`io(url, { auth: { token } })`, or an Authorization header where the
  // client can send one) signs the connection in before its first frame; a bad one refuses it.
  io.use((socket, next) => {
    if (handshakeCredential(socket) !== undefined) return subscriptions.admit(socket, next);
    const token = handshakeToken(socket);
    if (!token) return next();
    Promise.resolve()
      .then(() =>
        app.service(hub.authenticationPath).create({ strategy: 'jwt', accessToken: token }, handshakeParams(socket)),
      )
      .then(
        (result: Record<string, any>) => {
          (socket.data as { login?: Record<string, any> }).login = result;
          next();
        },
        (error: unknown) => {
          const { body } = errorAnswer(error, options.production === true);
          next(Object.assign(new Error(body.message), { data: body }));
        },
      );
  });

  io.on('connection', (socket) => {
    // A resumed connection is the one it was (identity, channels); its missed events are already sent.
    const handedOver = socket.recovered ? sharedKeeper?.takeOver(socket.id) : undefined;
    const resumed = handedOver?.connection ?? (socket.recovered ? connectionsBySocketId.get(socket.id) : undefined);
    const connection: RealTimeConnection = resumed ?? {
      provider: SOCKET_PROVIDER,
      headers: socket.handshake.headers,
      ip: addressOf(socket),
    };
    sockets.set(connection, socket);
    connectionsBySocketId.set(socket.id, connection);
    if (subscribedServices(socket)) subscriptions.watch(socket);
    if (handedOver) {
      // Brought back from the shared store: it takes this handshake's address, and what waited for the socket.
      Object.assign(connection, { headers: socket.handshake.headers, ip: addressOf(socket) });
      bindTransport(connection, transport);
      for (const [eventName, data, position] of handedOver.waiting) {
        if (position === undefined) socket.emit(eventName, data);
        else {
          socket.emit(eventName, data, position);
          noteSent(connection, position);
        }
      }
    }
    const { metrics } = options;
    if (metrics) {
      metrics.socketConnections(1);
      socket.on('disconnect', () => metrics.socketConnections(-1));
    }
    socket.on('disconnect', () => {
      // Kept for the window when socket.io persisted its session (a lost network, not a logout or a kick).
      if (!localKeeper?.isAway(connection)) endConnection(connection, socket.id);
    });
    const budget = new CallBudget(callLimits);
    socket.onAny((method: unknown, ...args: unknown[]) => {
      // Frames read before a flooding connection was cut off are dropped.
      if (!socket.connected) return;
      const ack = typeof args[args.length - 1] === 'function' ? (args.pop() as Ack) : undefined;
      const admission = budget.admit();
      if (admission === 'run') answer(hub, socket, connection, budget, method, args, ack);
      else refuse(socket, budget, admission, ack);
    });
    if (resumed) return;
    hub.connect(connection, transport);
    // Where the client starts from: a client that has had no event yet can still resume.
    if (resume) socket.emit(RESUME_POINT_EVENT, resume.currentOffset());
    const standing = shared ? hub.logStanding() : undefined;
    if (standing) {
      socket.emit(RESUME_POINT_EVENT, standing.position);
      noteSent(connection, standing.position);
    }
    const login = (socket.data as { login?: Record<string, any> }).login;
    if (login) hub.loggedIn(connection, login);
    const subscribedTo = subscribedServices(socket);
    if (subscribedTo) hub.subscribe(connection, subscribedTo);
  });

  /** Not async: one promise (the call's) per frame, then the ack. */
  const answer = (
    realtime: RealTimeHub,
    socket: Socket,
    connection: RealTimeConnection,
    budget: CallBudget,
    method: unknown,
    args: unknown[],
    ack?: Ack,
  ): void => {
    const path = args[0];
    runSocketCall(callSettings, connection, method, path, args.slice(1)).then(
      (context) => {
        budget.settle();
        realtime.afterCall(context);
        ack?.(null, answerOf(context));
        checkBacklog(socket);
      },
      (error: unknown) => {
        budget.settle();
        const { body, unexpected } = errorAnswer(error, options.production === true);
        if (unexpected)
          logger.error(
            { err: error, method: String(method).slice(0, 100), path: String(path).slice(0, 200) },
            'socket call failed',
          );
        ack?.(body);
      },
    );
  };

  /** A call over the limit never runs: it gets a 429 ack, and a connection that keeps flooding is cut off. */
  const refuse = (socket: Socket, budget: CallBudget, admission: Exclude<Admission, 'run'>, ack?: Ack): void => {
    if (admission === 'refuse') {
      ack?.(tooManyCalls);
      return;
    }
    logger.warn(
      {
        socket: socket.id,
        refusedCalls: budget.refusedInWindow,
        windowMs: callLimits.refusalWindowMs,
        maxCallsInFlight: callLimits.maxCallsInFlight,
      },
      'disconnecting a real-time client that keeps sending calls over its limit',
    );
    socket.disconnect(true);
  };

  return {
    io,
    resumeWindow: resume,
    close: async () => {
      subscriptions.close();
      localKeeper?.close();
      if (sharedKeeper) {
        // Connections cut rather than told goodbye: their clients come back, to another instance or this one restarted,
        // and resume.
        io.engine.close();
        await sharedKeeper.close();
      } else {
        io.disconnectSockets(true);
        io.engine.close();
      }
      hub.close();
    },
  };
}

/** The bearer token of a handshake: the socket.io `auth.token`, else an `Authorization: Bearer` header. */
function handshakeToken(socket: Socket): string | undefined {
  const fromAuth = (socket.handshake.auth as { token?: unknown } | undefined)?.token;
  if (typeof fromAuth === 'string' && fromAuth !== '') return fromAuth;
  return bearerToken(socket.handshake.headers.authorization);
}
