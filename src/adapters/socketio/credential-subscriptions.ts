import type { Socket } from 'socket.io';
import type { Application } from '../../application/app/application';
import { errorAnswer } from '../../application/transport/error-answer';
import { echo } from '../../domain/echo';
import { BadRequest, Forbidden, NotAuthenticated } from '../../domain/errors';
import type { LoggerPort } from '../../ports/logger.port';
import type { ServiceCallerInfo } from '../../ports/service-caller';

/** Where a subscription's handshake came from: the params its credential is checked with. */
export type SubscriptionParams = Record<string, unknown>;

export interface CredentialSubscriptionSettings {
  readonly app: Application;
  readonly authenticationPath: string;
  readonly logger: LoggerPort;
  readonly production: boolean;
  /** How often the credential of each open subscription is checked again. */
  readonly recheckMs: number;
  readonly paramsOf: (socket: Socket) => SubscriptionParams;
}

/** The service credential a handshake carries (`auth.serviceCredential`), if any. */
export function handshakeCredential(socket: Socket): unknown {
  return (socket.handshake.auth as { serviceCredential?: unknown } | undefined)?.serviceCredential;
}

/** The services a socket's admitted subscription hears; undefined for any other socket. */
export function subscribedServices(socket: Socket): string[] | undefined {
  return (socket.data as { subscribedTo?: string[] }).subscribedTo;
}

type AuthenticationService = {
  authenticate(data: unknown, params: object, ...strategies: string[]): Promise<{ service?: ServiceCallerInfo }>;
};

/**
 * Other servers' subscriptions to the events of services bound to this one. A handshake with
 * `auth.serviceCredential` must carry a valid service credential that lets it read (`find` or
 * `get`) each service it names (`auth.services`); the connection then hears every event of those
 * services (`RealTimeHub.subscribe`). A credential is judged at the handshake and again every
 * `recheckMs` while the subscription is open: one revoked since (or no longer scoped for a
 * service) has its socket disconnected, and its server's reconnection is refused.
 */
export class CredentialSubscriptions {
  private readonly open = new Set<Socket>();
  private timer?: ReturnType<typeof setInterval>;
  private checking = false;

  constructor(private readonly settings: CredentialSubscriptionSettings) {}

  /** The services a credential may hear, of those `requested`; rejects with the reason it may not. */
  async servicesFor(credential: unknown, requested: unknown, params: SubscriptionParams): Promise<string[]> {
    const authentication = this.settings.app.service(this.settings.authenticationPath) as AuthenticationService;
    const result = await authentication.authenticate({ strategy: 'jwt', accessToken: credential }, params, 'jwt');
    if (!result.service) throw new NotAuthenticated('A subscription to events needs a service credential');
    if (
      !Array.isArray(requested) ||
      requested.length === 0 ||
      requested.length > 100 ||
      !requested.every((path) => typeof path === 'string')
    ) {
      throw new BadRequest('A subscription names the services it hears (auth.services)');
    }
    const scopes = result.service.scopes;
    const refused = requested.filter(
      (path: string) =>
        !Object.hasOwn(scopes, path) || !(scopes[path].includes('find') || scopes[path].includes('get')),
    );
    if (refused.length > 0)
      throw new Forbidden(`This service credential may not hear the events of '${echo(refused[0])}'`);
    return requested as string[];
  }

  /** The handshake step (socket.io middleware) of a socket that carries a service credential. */
  admit(socket: Socket, next: (error?: Error) => void): void {
    const { services } = socket.handshake.auth as { services?: unknown };
    this.servicesFor(handshakeCredential(socket), services, this.settings.paramsOf(socket)).then(
      (subscribedTo) => {
        (socket.data as { subscribedTo?: string[] }).subscribedTo = subscribedTo;
        next();
      },
      (error: unknown) => {
        const { body } = errorAnswer(error, this.settings.production);
        next(Object.assign(new Error(body.message), { data: body }));
      },
    );
  }

  /** A subscribed socket is connected: its credential is checked again until it disconnects. */
  watch(socket: Socket): void {
    this.open.add(socket);
    socket.once('disconnect', () => {
      this.open.delete(socket);
      if (this.open.size === 0) this.stopTimer();
    });
    if (this.timer === undefined) {
      this.timer = setInterval(() => void this.recheck(), this.settings.recheckMs);
      this.timer.unref();
    }
  }

  close(): void {
    this.stopTimer();
    this.open.clear();
  }

  private async recheck(): Promise<void> {
    // A slow check (many subscriptions) is not overlapped by the next one.
    if (this.checking) return;
    this.checking = true;
    try {
      for (const socket of [...this.open]) {
        const subscribedTo = subscribedServices(socket);
        try {
          await this.servicesFor(handshakeCredential(socket), subscribedTo, this.settings.paramsOf(socket));
        } catch (error) {
          if (!socket.connected) continue;
          const { body } = errorAnswer(error, this.settings.production);
          this.settings.logger.warn(
            { socket: socket.id, services: subscribedTo, reason: body.message },
            'ending an event subscription: its service credential is no longer accepted',
          );
          socket.disconnect(true);
        }
      }
    } finally {
      this.checking = false;
    }
  }

  private stopTimer(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }
}
