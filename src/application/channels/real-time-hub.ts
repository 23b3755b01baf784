import { copyWith } from '../../domain/plain-record';
import type { LoggerPort } from '../../ports/logger.port';
import type { EventBusPort, EventEnvelope } from '../../ports/event-bus.port';
import type { EventLogPort, LoggedEvent } from '../../ports/event-log.port';
import { TRACE_PARENT } from '../../ports/tracer.port';
import type { Application } from '../app/application';
import type { RegisteredService } from '../app/registered-service';
import type { HookContext } from '../hooks/hook-context';
import { AuthenticationTracking } from './authentication-tracking';
import type { Channel } from './channel';
import { ChannelRegistry } from './channel-registry';
import { bindTransport, type ConnectionTransport, type RealTimeConnection } from './connection';
import { deliverToChannels, sendGroup, type Delivery } from './event-delivery';
import { PublisherSet, type PublishContext } from './publishers';
import { concretePath, publishedView } from './published-view';

/** The events every service emits after successful calls; custom ones come from its registration. */
export const STANDARD_EVENTS = ['created', 'updated', 'patched', 'removed'] as const;

export interface RealTimeOptions {
  /**
   * Path of the authentication service whose `create`/`remove` over a connection log it in/out. Default
   * 'authentication'.
   */
  authenticationPath?: string;
  /** Where publisher failures are reported (they never fail the call). */
  logger?: LoggerPort;
}

type EmittingApp = Application & { emit(event: string, ...args: unknown[]): boolean };

/**
 * The real-time side of one app: its connections, named channels and publishers, who is logged
 * in on which connection, and the optional bus to other instances. Transports call `connect`,
 * `disconnect` and `afterCall`; services' events come in through `attachService`.
 */
export class RealTimeHub {
  readonly channels = new ChannelRegistry();
  readonly appPublishers = new PublisherSet();
  readonly connections = new Set<RealTimeConnection>();
  /** Distinguishes this instance's envelopes on a shared bus. */
  readonly instanceId = randomId();
  private readonly servicePublishers = new Map<string, PublisherSet>();
  /** Other servers' connections (service credentials) that hear every event of some services, by path. */
  private readonly subscribers = new Map<string, Set<RealTimeConnection>>();
  private readonly authentication: AuthenticationTracking;
  /** The authentication service whose `create`/`remove` log a connection in and out. */
  readonly authenticationPath: string;
  private bus?: EventBusPort;
  private log?: EventLogPort;
  /** This instance's events delivered at once while the log was unreachable (they come back from it later, to skip). */
  private deliveredAtOnce = 0;

  constructor(
    private readonly app: EmittingApp,
    private readonly options: RealTimeOptions = {},
  ) {
    this.authenticationPath = options.authenticationPath ?? 'authentication';
    this.authentication = new AuthenticationTracking({
      leaveAll: (connection) => this.channels.leaveAll(connection),
      login: (connection, result) => app.emit('login', result, { provider: connection.provider, connection }),
      logout: (connection, result, reason) =>
        app.emit('logout', result, { provider: connection.provider, connection, reason }),
    });
  }

  /** Open expiry timers, for leak checks. */
  get pendingTimers(): number {
    return this.authentication.pendingTimers;
  }

  publishersOf(path: string): PublisherSet {
    let set = this.servicePublishers.get(path);
    if (!set) this.servicePublishers.set(path, (set = new PublisherSet()));
    return set;
  }

  connect(connection: RealTimeConnection, transport: ConnectionTransport): void {
    bindTransport(connection, transport);
    this.connections.add(connection);
    this.app.emit('connection', connection);
  }

  /**
   * A server bound to this one (with a service credential whose scope covers reading them) hears
   * every event of `paths` as instances hear each other (the record less its hidden fields),
   * whatever the publishers pick, and applies its own publishers and policies to its connections.
   */
  subscribe(connection: RealTimeConnection, paths: readonly string[]): void {
    if (!this.connections.has(connection)) return;
    for (const path of paths) {
      let set = this.subscribers.get(path);
      if (!set) this.subscribers.set(path, (set = new Set()));
      set.add(connection);
    }
  }

  /**
   * An event of a service bound to another server, heard from that server: this instance's
   * publishers and policies pick who hears it here. Not put on the bus: every instance hears the
   * storing server itself. With an event log and the event's `identity` (the same on every
   * instance), it goes through the log once, so that clients coming back get it too.
   */
  republish(path: string, event: string, data: unknown, identity?: string): void {
    // With a log, one instance appends it (each hears it) and all deliver it from the log, where clients resume from.
    if (identity !== undefined && this.log?.reachable) {
      return this.log.append(
        { event, path, data, routing: { origin: this.instanceId, service: path } },
        { once: identity },
      );
    }
    this.publishFromElsewhere(path, event, data, {});
  }

  disconnect(connection: RealTimeConnection): void {
    for (const set of this.subscribers.values()) set.delete(connection);
    if (!this.connections.delete(connection)) return;
    this.authentication.forget(connection);
    this.channels.leaveAll(connection);
    this.app.emit('disconnect', connection);
  }

  /** A transport reports each successful call: a login or logout over a connection changes its identity. */
  afterCall(context: HookContext): void {
    if (context.path !== this.authenticationPath) return;
    const connection = context.params.connection as RealTimeConnection | undefined;
    if (!connection || !this.connections.has(connection)) return;
    if (context.method === 'create' && typeof context.result?.accessToken === 'string')
      this.authentication.loggedIn(connection, context.result);
    // A logout that ended the connection's session has made it anonymous already (`endSessions`).
    else if (context.method === 'remove' && connection.authentication)
      this.authentication.loggedOut(connection, context.dispatch ?? context.result ?? null);
  }

  /** A login the transport made for the connection itself (a token in the handshake). */
  loggedIn(connection: RealTimeConnection, result: Record<string, any>): void {
    if (this.connections.has(connection)) this.authentication.loggedIn(connection, result);
  }

  /**
   * Sessions that ended (here or on another instance): their connections become anonymous and leave their channels at
   * once.
   */
  endSessions(sessionIds: readonly string[]): void {
    const ended = new Set(sessionIds);
    for (const connection of this.connections) {
      const sessionId = connection.authentication?.sessionId;
      if (sessionId !== undefined && ended.has(sessionId)) this.authentication.loggedOut(connection, null, 'revoked');
    }
  }

  /** Listens to a service's events; its own publishers are set with `service.publish(...)`. */
  attachService(entry: RegisteredService): void {
    for (const event of new Set([...STANDARD_EVENTS, ...entry.events])) {
      entry.wrapper.on(event, (item: unknown, context?: HookContext) =>
        this.onServiceEvent(entry, event, item, context),
      );
    }
  }

  /** Shares this instance's events with the others and delivers theirs to this instance's connections. */
  attachBus(bus: EventBusPort): void {
    this.bus = bus;
    bus.subscribe((envelope) => this.onEnvelope(envelope));
  }

  /**
   * Like a bus, but every event, this instance's own included, is delivered from the log in its
   * order, with its position: what connections that come back to any instance resume from.
   */
  attachLog(log: EventLogPort): void {
    this.log = log;
    log.subscribe((event) => this.onLogged(event));
  }

  /** Where this instance's delivery stands in the log, and how many of its own events it delivered at once. */
  logStanding(): { position: string; deliveredAtOnce: number } | undefined {
    return this.log ? { position: this.log.position, deliveredAtOnce: this.deliveredAtOnce } : undefined;
  }

  /**
   * The logged events `connection` missed while away, through this instance's publishers and
   * policies as if it had been connected, to it alone. Skipped: what its former instance
   * (`from`) had delivered at once, up to its count then, while the log was unreachable.
   */
  replay(
    connection: RealTimeConnection,
    events: readonly LoggedEvent[],
    from?: { instanceId: string; deliveredAtOnce: number },
  ): void {
    for (const { position, envelope } of events) {
      const { routing } = envelope;
      if (
        from &&
        routing.atOnce !== undefined &&
        routing.origin === from.instanceId &&
        routing.atOnce <= from.deliveredAtOnce
      )
        continue;
      this.publishFromElsewhere(routing.service, envelope.event, envelope.data, routing.route ?? {}, routing.method, {
        position,
        only: connection,
      });
    }
  }

  close(): void {
    this.authentication.clearAll();
  }

  /** Never throws: the call that caused the event has succeeded whatever happens here. */
  private onServiceEvent(entry: RegisteredService, event: string, item: unknown, context?: HookContext): void {
    try {
      if (!publishes(entry)) return;
      // With a policy, the record travels whole (less what nobody reads); each connection gets its view at delivery.
      const visibility = entry.options.visibility;
      const data = visibility ? visibility.published(item) : publishedView(item, context);
      const route = context?.params?.route;
      const path = concretePath(entry.path, route);
      const envelope: EventEnvelope = {
        event,
        path,
        data,
        routing: {
          origin: this.instanceId,
          service: entry.path,
          method: context?.method,
          ...(route && Object.keys(route).length > 0 ? { route } : {}),
        },
      };
      const traceParent = context?.params?.[TRACE_PARENT];
      // With a log, this instance's connections get the event from it, in the log's order.
      if (this.log?.reachable) return this.log.append(envelope, { traceParent });
      const publishContext: PublishContext = context ?? {
        app: this.app,
        service: entry.wrapper,
        path: entry.path,
        event,
      };
      if (this.log) {
        this.deliveredAtOnce += 1;
        this.runPublishers(entry, event, path, data, publishContext, { position: this.log.position });
        return this.log.append(
          copyWith(envelope, { routing: copyWith(envelope.routing, { atOnce: this.deliveredAtOnce }) }),
          { traceParent },
        );
      }
      this.runPublishers(entry, event, path, data, publishContext);
      this.bus?.publish(envelope, traceParent);
    } catch (error) {
      this.reportFailure(error, entry.path, event);
    }
  }

  private onEnvelope(envelope: EventEnvelope): void {
    const { routing } = envelope;
    if (routing.origin === this.instanceId) return;
    this.publishFromElsewhere(routing.service, envelope.event, envelope.data, routing.route ?? {}, routing.method);
  }

  private onLogged({ position, envelope }: LoggedEvent): void {
    const { routing } = envelope;
    // Delivered here at once while the log was unreachable.
    if (routing.origin === this.instanceId && routing.atOnce !== undefined) return;
    this.publishFromElsewhere(routing.service, envelope.event, envelope.data, routing.route ?? {}, routing.method, {
      position,
    });
  }

  /**
   * An event that happened elsewhere (another instance, the storing server, the log), through this instance's
   * publishers.
   */
  private publishFromElsewhere(
    service: string,
    event: string,
    data: unknown,
    route: Record<string, string>,
    method?: string,
    delivery?: Delivery,
  ): void {
    const entry = this.app.lookup(service);
    if (!entry || !publishes(entry)) return;
    const context: PublishContext = {
      app: this.app,
      service: entry.wrapper,
      path: entry.path,
      method,
      event,
      params: { route },
      result: data,
      dispatch: data,
      remote: true,
    };
    try {
      this.runPublishers(entry, event, concretePath(entry.path, route), data, context, delivery);
    } catch (error) {
      this.reportFailure(error, entry.path, event);
    }
  }

  /**
   * Subscribed servers first (they get every event), then the publisher. Precedence: the
   * service's publisher for the event, its catch-all, the app's for the event, the app's catch-all.
   */
  private runPublishers(
    entry: RegisteredService,
    event: string,
    path: string,
    data: unknown,
    context: PublishContext,
    delivery?: Delivery,
  ): void {
    const eventName = `${path} ${event}`;
    const subscribed = this.subscribers.get(entry.path);
    const only = delivery?.only;
    if (subscribed && subscribed.size > 0 && (!only || subscribed.has(only)))
      sendGroup(eventName, data, only ? [only] : [...subscribed], delivery?.position);
    const publisher = this.servicePublishers.get(entry.path)?.for(event) ?? this.appPublishers.for(event);
    if (!publisher) return;
    const returned = publisher(data, context);
    if (isPromise(returned)) {
      returned.then(
        (channels) =>
          deliverToChannels(
            eventName,
            data,
            channels as Channel | Channel[] | null,
            entry.options.visibility,
            delivery,
          ),
        (error: unknown) => this.reportFailure(error, entry.path, event),
      );
    } else {
      deliverToChannels(eventName, data, returned, entry.options.visibility, delivery);
    }
  }

  private reportFailure(error: unknown, path: string, event: string): void {
    const message = error instanceof Error ? error.message : String(error);
    this.options.logger?.error({ path, event, err: message }, 'publishing an event failed');
  }
}

/**
 * Internal-only services (no method exposed to transports) publish nothing unless registered with `publishEvents:
 * true`.
 */
function publishes(entry: RegisteredService): boolean {
  return entry.options.publishEvents ?? entry.methods.length > 0;
}

function isPromise(value: unknown): value is Promise<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

function randomId(): string {
  const crypto = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto;
  return crypto?.randomUUID?.() ?? `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}
